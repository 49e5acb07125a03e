import { describe, expect, it } from "vitest";
import { type OutageState, observeProbe } from "../../../src/runtime/outage.js";

const GRACE = 1_000;

function run(probes: [ok: boolean, at: number][]) {
  let state: OutageState = new Map();
  return probes.map(([ok, at]) => {
    const verdict = observeProbe(state, { name: "database", ok, at }, GRACE);
    state = verdict.state;
    return verdict;
  });
}

describe("observeProbe", () => {
  it("waits out a drop that reconnects within the grace period", () => {
    const verdicts = run([
      [true, 0],
      [false, 100],
      [false, 1_000],
      [true, 1_050],
      [false, 1_100],
      [false, 2_000],
    ]);
    expect(verdicts.map((v) => v.dead)).toEqual([false, false, false, false, false, false]);
    expect(verdicts.map((v) => v.changed)).toEqual([false, true, false, true, true, false]);
    expect(verdicts[2]!.downForMs).toBe(900);
    // The outage that began at 1_100 is measured from there, not from the first one.
    expect(verdicts[5]!.downForMs).toBe(900);
  });

  it("declares the connection dead once failures last longer than the grace period", () => {
    const verdicts = run([
      [false, 0],
      [false, 1_000],
      [false, 1_001],
    ]);
    expect(verdicts.map((v) => v.dead)).toEqual([false, false, true]);
    expect(verdicts[2]!.downForMs).toBe(1_001);
  });

  it("keeps each connection's outage apart", () => {
    const first = observeProbe(new Map(), { name: "redis", ok: false, at: 0 }, GRACE);
    const second = observeProbe(first.state, { name: "database", ok: false, at: 900 }, GRACE);
    const third = observeProbe(second.state, { name: "database", ok: false, at: 1_500 }, GRACE);
    expect(third).toMatchObject({ dead: false, downForMs: 600 });
    expect(observeProbe(third.state, { name: "redis", ok: false, at: 1_500 }, GRACE)).toMatchObject({
      dead: true,
      downForMs: 1_500,
    });
  });
});
