import { afterEach, describe, expect, it, vi } from "vitest";
import { createGatewayLimiter } from "../../../src/charging/index.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("the gateway limiter", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps at most maxInFlight calls open, and starts the next as one settles, in order", async () => {
    const limiter = createGatewayLimiter({ maxInFlight: 2, ratePerSecond: 1000 });
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const calls = gates.map((gate, i) =>
      limiter.run(async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);

    gates[1]!.resolve();
    expect(await calls[1]).toBe(1);
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it("takes as many calls as may start now, up to the number asked, and waits for a given-back one", async () => {
    const limiter = createGatewayLimiter({ maxInFlight: 3, ratePerSecond: 1000 });
    expect(await limiter.take(5)).toBe(3);
    let next: number | undefined;
    const waiting = limiter.take(4).then((count) => {
      next = count;
    });
    await Promise.resolve();
    expect(next).toBeUndefined();
    limiter.give(2);
    await waiting;
    expect(next).toBe(2);
  });

  it("waits until atLeast calls are free when asked, so a busy process claims in waves", async () => {
    const limiter = createGatewayLimiter({ maxInFlight: 4, ratePerSecond: 1000 });
    expect(await limiter.take(2)).toBe(2);
    let granted: number | undefined;
    const wave = limiter.take(10, 3).then((count) => {
      granted = count;
    });
    await Promise.resolve();
    expect(granted).toBeUndefined();
    limiter.give(1);
    await wave;
    expect(granted).toBe(3);
    // Never more than the limits allow at once: atLeast is capped by maxInFlight.
    limiter.give(4);
    expect(await limiter.take(10, 50)).toBe(4);
  });

  it("frees the slot of a call that throws", async () => {
    const limiter = createGatewayLimiter({ maxInFlight: 1, ratePerSecond: 1000 });
    await expect(limiter.run(() => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect(await limiter.run(async () => "next")).toBe("next");
  });

  it("starts at most ratePerSecond calls a second: a second's worth at once, then one per 1/rate", async () => {
    vi.useFakeTimers();
    let now = 0;
    const limiter = createGatewayLimiter({ maxInFlight: 100, ratePerSecond: 4 }, () => now);
    const started: number[] = [];
    const calls = Array.from({ length: 6 }, (_, i) => limiter.run(async () => started.push(i)));
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([0, 1, 2, 3]);

    now = 250;
    await vi.advanceTimersByTimeAsync(250);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    now = 500;
    await vi.advanceTimersByTimeAsync(250);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    await Promise.all(calls);
  });

  it("refuses limits that are not whole numbers from 1", () => {
    expect(() => createGatewayLimiter({ maxInFlight: 0, ratePerSecond: 10 })).toThrow(/maxInFlight/);
    expect(() => createGatewayLimiter({ maxInFlight: 1, ratePerSecond: 0.5 })).toThrow(/ratePerSecond/);
  });

  it("halves its rate on a 429, then climbs back to it", async () => {
    let now = 0;
    const limiter = createGatewayLimiter({ maxInFlight: 1_000, ratePerSecond: 100 }, () => now);
    limiter.throttled();
    // A second's worth at half the rate, no more.
    expect(await limiter.take(100)).toBe(50);
    limiter.give(50);
    // Ten seconds later the rate is whole again, and so is a second's worth.
    now = 10_000;
    expect(await limiter.take(100)).toBe(100);
  });
});
