import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/logger/index.js";
import { watchConnections } from "../../../src/runtime/index.js";

/** Resolves with what `onDead` reported, or rejects past the deadline. */
function deadReport(deadlineMs: number) {
  let report!: (value: { name: string; downForMs: number }) => void;
  const reported = new Promise<{ name: string; downForMs: number }>((resolve, reject) => {
    report = resolve;
    setTimeout(() => reject(new Error(`no report within ${deadlineMs} ms`)), deadlineMs).unref();
  });
  return { reported, report };
}

describe("watchConnections", () => {
  it("reports a connection down past the grace period, counting a probe that hangs as down", async () => {
    let now = 0;
    const { reported, report } = deadReport(5_000);
    let closed = false;
    const watch = watchConnections(
      [
        { name: "database", check: async () => (now += 400) },
        { name: "redis", check: () => new Promise(() => undefined), close: () => (closed = true) },
      ],
      {
        graceMs: 1_000,
        intervalMs: 10,
        logger: silentLogger,
        now: () => now,
        onDead: (name, ms) => report({ name, downForMs: ms }),
      },
    );
    // Each round advances the clock by 400 ms: redis, down since the first round, passes 1 s in the fourth.
    expect(await reported).toEqual({ name: "redis", downForMs: 1_200 });
    await watch.stop();
    expect(closed).toBe(true);
  });

  it("stays quiet while every drop reconnects within the grace period", async () => {
    let now = 0;
    let rounds = 0;
    let dead: string | undefined;
    let finished!: () => void;
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const watch = watchConnections(
      [
        {
          name: "database",
          check: async () => {
            now += 400;
            rounds += 1;
            if (rounds === 12) finished();
            // Down two rounds in three: 800 ms at a time, under the 1 s grace.
            if (rounds % 3 !== 0) throw new Error("connection refused");
          },
        },
      ],
      {
        graceMs: 1_000,
        intervalMs: 5,
        logger: silentLogger,
        now: () => now,
        onDead: (name) => (dead = name),
      },
    );
    await done;
    await watch.stop();
    expect(dead).toBeUndefined();
  });
});
