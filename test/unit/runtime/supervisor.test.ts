import { describe, expect, it } from "vitest";
import { createLogger, silentLogger } from "../../../src/logger/index.js";
import {
  type RoleRestart,
  type Schedule,
  type SupervisedRole,
  superviseRoles,
} from "../../../src/runtime/supervisor.js";

/** Resolves once `check` holds, checking after each turn of the event loop; fails past 2 s. */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Timers the test fires by hand, so a 30 s backoff costs nothing. */
function manualTimers() {
  const pending: { ms: number; run: () => void; canceled: boolean }[] = [];
  const schedule: Schedule = (ms, run) => {
    const timer = { ms, run, canceled: false };
    pending.push(timer);
    return () => {
      timer.canceled = true;
    };
  };
  return {
    schedule,
    pending,
    /** Fires the one timer waiting, and says how long it was set for. */
    fire(): number {
      const live = pending.filter((timer) => !timer.canceled);
      expect(live).toHaveLength(1);
      pending.length = 0;
      live[0]!.run();
      return live[0]!.ms;
    },
  };
}

/** A role that counts its starts and stops and fails when the test says so. */
function fakeRole(name: string, options: { startFails?: (start: number) => boolean } = {}) {
  const role = {
    name,
    starts: 0,
    stops: 0,
    fail: (_error: unknown) => {},
    async start(failed: (error: unknown) => void) {
      role.starts += 1;
      if (options.startFails?.(role.starts)) throw new Error(`${name} cannot start`);
      role.fail = failed;
      return async () => {
        role.stops += 1;
      };
    },
  };
  return role satisfies SupervisedRole;
}

function setup(roles: SupervisedRole[]) {
  let now = 0;
  const timers = manualTimers();
  const restarts: RoleRestart[] = [];
  const supervisor = superviseRoles(roles, {
    logger: silentLogger,
    now: () => now,
    schedule: timers.schedule,
    onRestart: (restart) => restarts.push(restart),
  });
  return {
    supervisor,
    timers,
    restarts,
    at(ms: number) {
      now = ms;
    },
  };
}

describe("superviseRoles", () => {
  it("restarts a failed role with a doubling backoff, reset after a healthy minute, and leaves the others be", async () => {
    const charges = fakeRole("charges");
    const invoices = fakeRole("invoices");
    const { supervisor, timers, restarts, at } = setup([charges, invoices]);
    await supervisor;

    at(5_000);
    charges.fail(new Error("worker closed"));
    expect(restarts.map((r) => [r.role, r.failures, r.delayMs])).toEqual([["charges", 1, 1_000]]);
    await until("the failed run is released", () => charges.stops === 1);
    expect(timers.fire()).toBe(1_000);
    await until("charges restarted", () => charges.starts === 2);

    // Fails again at once: twice the delay. A second report from the same run changes nothing.
    at(6_500);
    charges.fail(new Error("worker closed"));
    charges.fail(new Error("worker closed"));
    expect(restarts.map((r) => r.delayMs)).toEqual([1_000, 2_000]);
    timers.fire();
    await until("charges restarted again", () => charges.starts === 3);

    // This run lasts a minute: the next failure starts the backoff again.
    at(8_500 + 60_000);
    charges.fail(new Error("worker closed"));
    expect(restarts.map((r) => r.delayMs)).toEqual([1_000, 2_000, 1_000]);
    expect(restarts.at(-1)?.failures).toBe(1);
    expect(restarts.map((r) => r.error)).toEqual([
      new Error("worker closed"),
      new Error("worker closed"),
      new Error("worker closed"),
    ]);

    expect(invoices).toMatchObject({ starts: 1, stops: 0 });
    await (await supervisor).stop();
    expect(invoices.stops).toBe(1);
    // The pending restart was canceled: charges did not start a fourth time.
    expect(charges).toMatchObject({ starts: 3, stops: 3 });
  });

  it("counts a restart that cannot start as another failure", async () => {
    const tokens = fakeRole("tokens", { startFails: (start) => start === 2 });
    const { supervisor, timers, restarts } = setup([tokens]);
    await supervisor;

    tokens.fail(new Error("loop threw"));
    expect(timers.fire()).toBe(1_000);
    await until("the failed restart", () => restarts.length === 2);
    expect(restarts[1]).toMatchObject({ role: "tokens", failures: 2, delayMs: 2_000 });
    expect(String(restarts[1]?.error)).toContain("tokens cannot start");
    timers.fire();
    await until("tokens running again", () => tokens.starts === 3);
    await (await supervisor).stop();
    // The failed first run and the third; the second never started.
    expect(tokens.stops).toBe(2);
  });

  it("restarts nothing once stopping: roles reporting their own close are not failures", async () => {
    const charges = fakeRole("charges");
    const webhooks: SupervisedRole = {
      name: "webhooks",
      // As a BullMQ worker does: closing it emits 'closed', which the role reports.
      start: async (failed) => async () => failed(new Error("worker closed")),
    };
    const { supervisor, timers, restarts } = setup([charges, webhooks]);
    const running = await supervisor;
    charges.fail(new Error("worker closed"));
    expect(restarts).toHaveLength(1);

    await running.stop();
    expect(restarts).toHaveLength(1);
    expect(timers.pending.every((timer) => timer.canceled)).toBe(true);
    expect(charges.starts).toBe(1);
  });

  it("stops a restart that was under way when stop() was called", async () => {
    let releaseStart!: () => void;
    let stops = 0;
    let starts = 0;
    let fail!: (error: unknown) => void;
    const slow: SupervisedRole = {
      name: "scheduler",
      async start(failed) {
        starts += 1;
        fail = failed;
        if (starts === 2) await new Promise<void>((resolve) => (releaseStart = resolve));
        return async () => {
          stops += 1;
        };
      },
    };
    const { supervisor, timers } = setup([slow]);
    const running = await supervisor;
    fail(new Error("loop threw"));
    await until("the failed run is released", () => stops === 1);
    timers.fire();
    await until("the restart begins", () => starts === 2);

    const stopped = running.stop();
    releaseStart();
    await stopped;
    expect(stops).toBe(2);
  });

  it("fails the start when a role cannot start at boot, stopping the ones started", async () => {
    const charges = fakeRole("charges");
    const invoices = fakeRole("invoices", { startFails: () => true });
    const { supervisor, restarts } = setup([charges, invoices]);
    await expect(supervisor).rejects.toThrow("invoices cannot start");
    expect(charges).toMatchObject({ starts: 1, stops: 1 });
    expect(restarts).toEqual([]);
  });

  it("tells roles that fail with their lost connection once, and every other failure", async () => {
    const lines: { level: number; role: string; err: { message: string } }[] = [];
    const logger = createLogger(
      { level: "debug" },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const roles = ["charges", "invoices", "webhooks", "messages"].map((name) => fakeRole(name));
    const timers = manualTimers();
    const supervisor = await superviseRoles(roles, { logger, now: () => 0, schedule: timers.schedule });

    const lost = Object.assign(new Error("terminating connection due to unexpected postmaster exit"), {
      code: "57P01",
    });
    for (const role of roles.slice(0, 3))
      role.fail(new Error("the worker closed unexpectedly", { cause: lost }));
    roles[3]!.fail(new Error("a bug"));
    await supervisor.stop();

    const failures = lines.filter((line) => line.role !== undefined && line.level >= 50);
    expect(failures.map((line) => [line.role, line.err.message])).toEqual([
      ["charges", "the worker closed unexpectedly"],
      ["messages", "a bug"],
    ]);
    expect(failures[0]!.err).toMatchObject({ cause: { message: lost.message, code: "57P01" } });
    expect(lines.filter((line) => line.level === 20 && line.role !== undefined)).toHaveLength(2);
  });
});
