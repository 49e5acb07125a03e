import { describe, expect, it } from "vitest";
import { allowedRate, slowedDown } from "../../../src/charging/throttle.js";

describe("slowing down after a 429", () => {
  it.each([
    // [configured rate, slowdown, now, allowed]
    [100, null, 5_000, 100],
    // halved at t=1000 to 50: back by 10 a second (100 over 10 s), full again at t=6000
    [100, { rate: 50, at: 1_000 }, 1_000, 50],
    [100, { rate: 50, at: 1_000 }, 2_000, 60],
    [100, { rate: 50, at: 1_000 }, 5_999, 99],
    [100, { rate: 50, at: 1_000 }, 6_000, 100],
    [100, { rate: 50, at: 1_000 }, 60_000, 100],
  ])("rate %i after %j at %i allows %i", (rate, slowdown, now, allowed) => {
    expect(allowedRate(rate, slowdown, now, 10_000)).toBe(allowed);
  });

  it("halves what was allowed at the time, never below one call a second", () => {
    expect(slowedDown(100, null, 1_000, 10_000)).toEqual({ rate: 50, at: 1_000 });
    // a 429 a second and a half later: 50 + 15 recovered, halved
    expect(slowedDown(100, { rate: 50, at: 1_000 }, 2_500, 10_000)).toEqual({ rate: 32, at: 2_500 });
    expect(slowedDown(1, { rate: 1, at: 0 }, 5_000, 10_000)).toEqual({ rate: 1, at: 5_000 });
  });

  it("halves once for the 429s of one burst: not again within a second", () => {
    const once = slowedDown(100, null, 1_000, 10_000);
    expect(slowedDown(100, once, 1_000, 10_000)).toBe(once);
    expect(slowedDown(100, once, 1_999, 10_000)).toBe(once);
    expect(slowedDown(100, once, 2_000, 10_000)).toEqual({ rate: 30, at: 2_000 });
  });
});
