import { setImmediate as turn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { runLoopGuard } from "../../../src/queue/index.js";

describe("runLoopGuard", () => {
  it("calls onSpin once when errors keep coming without the event loop turning", () => {
    let spins = 0;
    const noteError = runLoopGuard(() => (spins += 1), 50);
    for (let error = 0; error < 49; error += 1) noteError();
    expect(spins).toBe(0);
    for (let error = 0; error < 200; error += 1) noteError();
    expect(spins).toBe(1);
  });

  it("counts afresh after each turn of the event loop, so errors that wait are no spin", async () => {
    let spins = 0;
    const noteError = runLoopGuard(() => (spins += 1), 50);
    for (let round = 0; round < 10; round += 1) {
      for (let error = 0; error < 40; error += 1) noteError();
      await turn();
    }
    expect(spins).toBe(0);
  });
});
