import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { type Check, type CheckName, judgeTick, runChecks } from "../../../src/health/index.js";
import type { TickRun } from "../../../src/scheduler/index.js";

/** The verdicts of src/health without any dependency: how checks combine, and the tick's rule. */

const ok: Check = async () => ({ status: "ok", reason: "fine" });

function checks(overrides: Partial<Record<CheckName, Check>> = {}): Record<CheckName, Check> {
  return { database: ok, queue: ok, gateway: ok, tick: ok, gateway_breaker: ok, ...overrides };
}

describe("runChecks", () => {
  it("is ready when every check is ok or warn", async () => {
    const result = await runChecks(
      checks({ tick: async () => ({ status: "warn", reason: "the last tick failed" }) }),
    );
    expect(result.status).toBe("ready");
    expect(result.checks.tick).toEqual({ status: "warn", reason: "the last tick failed" });
  });

  it("is not ready when the database check throws, with the error as its reason", async () => {
    const refused = new TypeError("connection failed", {
      cause: new Error("connect ECONNREFUSED 127.0.0.1:5432"),
    });
    const result = await runChecks(checks({ database: () => Promise.reject(refused) }));
    expect(result.status).toBe("not_ready");
    expect(result.checks.database).toEqual({
      status: "failing",
      reason: "connection failed: connect ECONNREFUSED 127.0.0.1:5432",
    });
    expect(result.checks.queue.status).toBe("ok");
  });

  it("answers when a check hangs, calling that check failing after its timeout", async () => {
    const hung: Check = () => new Promise(() => undefined);
    const result = await runChecks(checks({ queue: hung }), { timeoutMs: 50 });
    expect(result.status).toBe("not_ready");
    expect(result.checks.queue).toEqual({ status: "failing", reason: "no answer within 50 ms" });
    expect(result.checks.database.status).toBe("ok");
  });

  it("is paused when only the circuit breaker fails, not ready when something else fails too", async () => {
    const open: Check = async () => ({ status: "failing", reason: "open" });
    expect((await runChecks(checks({ gateway_breaker: open }))).status).toBe("paused");
    expect((await runChecks(checks({ gateway_breaker: open, gateway: open }))).status).toBe("not_ready");
  });
});

function run(fields: Partial<TickRun>): TickRun {
  const startedAt = DateTime.fromISO("2026-01-15T09:00:00Z");
  return {
    name: "billing",
    startedAt,
    finishedAt: startedAt.plus({ milliseconds: 40 }),
    durationMs: 40,
    outcome: "ok",
    error: null,
    runs: 3,
    ageSeconds: 5,
    ...fields,
  };
}

describe("judgeTick", () => {
  const every = { tickSeconds: 60 };

  it("is ok after a recent tick, with its duration", () => {
    const verdict = judgeTick(run({}), every);
    expect(verdict.status).toBe("ok");
    expect(verdict.reason).toBe("last tick 5 s ago, took 40 ms");
    expect(verdict.detail).toMatchObject({ duration_ms: 40, outcome: "ok", stall_limit_seconds: 180 });
  });

  it("warns, still ready, when the last tick failed, naming its error", () => {
    const verdict = judgeTick(run({ outcome: "failed", error: "clock store unreachable" }), every);
    expect(verdict.status).toBe("warn");
    expect(verdict.reason).toContain("clock store unreachable");
  });

  it("fails when no tick was ever recorded", () => {
    expect(judgeTick(null, every)).toMatchObject({
      status: "failing",
      reason: "no tick recorded yet: is the scheduler running?",
    });
  });

  it("fails when the last tick started longer ago than 3 ticks, or 60 s for short ticks", () => {
    expect(judgeTick(run({ ageSeconds: 181 }), every).status).toBe("failing");
    expect(judgeTick(run({ ageSeconds: 180 }), every).status).toBe("ok");
    expect(judgeTick(run({ ageSeconds: 61 }), { tickSeconds: 5 }).status).toBe("failing");
    expect(judgeTick(run({ ageSeconds: 59 }), { tickSeconds: 5 }).status).toBe("ok");
  });

  it("fails when a tick is still running after the stall limit, and says so", () => {
    const verdict = judgeTick(run({ ageSeconds: 400, finishedAt: null, outcome: null }), every);
    expect(verdict.status).toBe("failing");
    expect(verdict.reason).toContain("still running");
    expect(judgeTick(run({ ageSeconds: 30, finishedAt: null, outcome: null }), every).status).toBe("ok");
  });

  it("expects no tick yet from a process up for less than the stall limit", () => {
    expect(judgeTick(null, { ...every, uptimeSeconds: 10 }).status).toBe("ok");
    expect(judgeTick(run({ ageSeconds: 86_400 }), { ...every, uptimeSeconds: 10 }).status).toBe("ok");
    expect(judgeTick(null, { ...every, uptimeSeconds: 181 }).status).toBe("failing");
  });
});
