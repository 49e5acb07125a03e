import { describe, expect, it } from "vitest";
import { SlidingWindow } from "../../src/simulator/rate/sliding-window.js";

/** The rate limit's window on made-up times (milliseconds): (now - 1000, now], refusals not counted. */
describe("SlidingWindow", () => {
  it("admits `limit` calls in a second, refuses the next with the wait until the oldest leaves", () => {
    const window = new SlidingWindow();
    for (const time of [0, 100, 200]) expect(window.admit(time, 3)).toBeUndefined();
    expect(window.admit(999.5, 3)).toEqual({ retryAfterMs: 0.5 });
    // Exactly 1000 ms later the call at 0 is out of the window.
    expect(window.admit(1000, 3)).toBeUndefined();
    expect(window.admit(1050, 3)).toEqual({ retryAfterMs: 50 });
    expect(window.counters()).toEqual({ accepted: 4, refused: 2, maxInWindow: 3 });
  });

  it("does not count refused calls toward the window", () => {
    const window = new SlidingWindow();
    window.admit(0, 1);
    for (const time of [10, 500, 990]) expect(window.admit(time, 1)).toBeDefined();
    expect(window.admit(1000, 1)).toBeUndefined();
  });

  it("finds the busiest second exactly, without a limit, as the buffer grows", () => {
    const window = new SlidingWindow();
    // 20 calls in [0, 950], then 5 more 1 s after the first ones: windows hold at most 20.
    for (let index = 0; index < 20; index++) window.admit(index * 50, null);
    for (let index = 0; index < 5; index++) window.admit(1000 + index * 50, null);
    expect(window.counters()).toEqual({ accepted: 25, refused: 0, maxInWindow: 20 });
    // 30 calls at one instant later on.
    for (let index = 0; index < 30; index++) window.admit(5000, null);
    expect(window.counters().maxInWindow).toBe(30);
  });

  it("waits for enough calls to leave when the limit was lowered", () => {
    const window = new SlidingWindow();
    for (const time of [0, 100, 200, 300]) window.admit(time, null);
    // Down to 2: the calls at 0, 100 and 200 must leave, the last at 1200.
    expect(window.admit(400, 2)).toEqual({ retryAfterMs: 800 });
    expect(window.admit(1199, 2)).toBeDefined();
    expect(window.admit(1200, 2)).toBeUndefined();
  });

  it("resets the counters but keeps limiting with the calls still in the window", () => {
    const window = new SlidingWindow();
    window.admit(0, 2);
    window.admit(600, 2);
    window.resetCounters();
    expect(window.counters()).toEqual({ accepted: 0, refused: 0, maxInWindow: 0 });
    expect(window.admit(700, 2)).toEqual({ retryAfterMs: 300 });
    // The call at 600 is still in the window but came before the reset: the maximum counts 1.
    expect(window.admit(1000, 2)).toBeUndefined();
    expect(window.counters()).toEqual({ accepted: 1, refused: 1, maxInWindow: 1 });
    // Once it has left, two calls after the reset share a window.
    expect(window.admit(1600, 2)).toBeUndefined();
    expect(window.counters().maxInWindow).toBe(2);
  });
});
