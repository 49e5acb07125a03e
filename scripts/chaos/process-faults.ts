/**
 * Scenarios where the engine's own infrastructure fails mid-run: a charge worker SIGKILLed (its
 * supervisor restarts it), the queue's Redis keys wiped, the workers' PostgreSQL connections
 * terminated. Expected every time: every period paid exactly once, nothing lost, the breaker closed.
 */
import { QUEUE_NAMES } from "../../src/queue/index.js";
import {
  allPaid,
  type Check,
  midRun,
  paceGateway,
  type Scenario,
  settleWithBreakerClosed,
} from "./scenario.js";
import { DeadlineError, settle } from "./settle.js";

const MID_RUN = 0.2;
/** Longer than a few ticks and CHARGE_REDISPATCH_AFTER_SECONDS, within the quiet period's reach. */
const STALL_MS = 45_000;

export const killWorker: Scenario = {
  name: "kill-worker",
  title: "charge worker SIGKILLed mid-run, restarted",
  deadlineMs: 100_000,
  async run(run) {
    const { h } = run;
    await paceGateway(h);
    await h.seed(run.n);
    await midRun(run, MID_RUN);
    const started = performance.now();
    const [victim] = h.chargeWorkers();
    victim!.kill("SIGKILL");
    const { settleMs, breakerCheck } = await settleWithBreakerClosed(run, started);
    run.notes.push(
      `${victim!.name} SIGKILLed at ${await h.paidCount()} paid; restarted ${victim!.restarts}×`,
    );
    return {
      settleMs,
      checks: [
        allPaid(await h.paidCount(), h.due),
        breakerCheck,
        { name: "killed worker restarted", ok: victim!.restarts >= 1, detail: `${victim!.restarts}×` },
      ],
    };
  },
};

export const wipeRedis: Scenario = {
  name: "redis-wipe",
  title: "the queue's Redis keys deleted mid-run",
  deadlineMs: 90_000,
  async run(run) {
    const { h } = run;
    await paceGateway(h);
    await h.seed(run.n);
    await midRun(run, MID_RUN);
    const started = performance.now();
    let deleted = 0;
    let cursor = "0";
    do {
      const [next, keys] = await h.redis.scan(
        cursor,
        "MATCH",
        `${h.engineEnv.QUEUE_PREFIX}:*`,
        "COUNT",
        1000,
      );
      if (keys.length > 0) deleted += await h.redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
    run.notes.push(`deleted ${deleted} Redis keys of ${h.engineEnv.QUEUE_PREFIX}`);
    // The engine is expected to carry on by itself; if it stalls, say how, then restart the
    // scheduler as an operator would, so the money is still checked.
    let stalled: Check = { name: "carries on after the wipe without a restart", ok: true, detail: "yes" };
    try {
      await settle(h, Math.min(run.deadline, performance.now() + STALL_MS));
    } catch (error) {
      if (!(error instanceof DeadlineError)) throw error;
      const scheduler = await h.redis.exists(`${h.engineEnv.QUEUE_PREFIX}:${QUEUE_NAMES.billingTick}:repeat`);
      const detail = `not settled ${STALL_MS / 1000} s after the wipe at ${await h.paidCount()} of ${h.due} paid; billing-tick job scheduler in Redis: ${scheduler === 1 ? "present" : "absent"}`;
      stalled = { ...stalled, ok: false, detail };
      run.notes.push(`${detail}; scheduler process restarted by the suite`);
      await h.processes.get("scheduler")!.replace(h.workerEnv());
    }
    const { settleMs, breakerCheck } = await settleWithBreakerClosed(run, started);
    return { settleMs, checks: [allPaid(await h.paidCount(), h.due), breakerCheck, stalled] };
  },
};

export const terminatePostgres: Scenario = {
  name: "pg-terminate",
  title: "workers' PostgreSQL connections terminated mid-run",
  deadlineMs: 100_000,
  async run(run) {
    const { h } = run;
    await paceGateway(h);
    await h.seed(run.n);
    await midRun(run, MID_RUN);
    const started = performance.now();
    // Chosen first, terminated second: in one WHERE, PostgreSQL may call pg_terminate_backend
    // before the cheaper-looking filters and end backends that were not meant (this runner's).
    const chosen = await h.admin<{ pid: number; application_name: string }[]>`
      select pid, application_name from pg_stat_activity
      where datname = ${h.dbName} and application_name in ('scheduler', 'charge-worker', 'invoice-worker')`;
    const terminated: { application_name: string }[] = [];
    for (const backend of chosen) {
      const [row] = await h.admin<
        { done: boolean }[]
      >`select pg_terminate_backend(${backend.pid}::int) as done`;
      if (row?.done) terminated.push(backend);
    }
    const byProcess = new Map<string, number>();
    for (const row of terminated)
      byProcess.set(row.application_name, (byProcess.get(row.application_name) ?? 0) + 1);
    run.notes.push(
      `terminated ${terminated.length} backends (${[...byProcess].map(([name, n]) => `${name} ${n}`).join(", ")})`,
    );
    const { settleMs, breakerCheck } = await settleWithBreakerClosed(run, started);
    const restarts = [...h.processes.values()]
      .filter((p) => p.restarts > 0)
      .map(
        (p) =>
          `${p.name} ${p.restarts}× (exit ${p.unexpectedExits.map((e) => e.code ?? e.signal).join(",")})`,
      );
    run.notes.push(`restarted: ${restarts.length === 0 ? "none" : restarts.join(", ")}`);
    return {
      settleMs,
      checks: [
        allPaid(await h.paidCount(), h.due),
        breakerCheck,
        { name: "backends terminated", ok: terminated.length > 0, detail: String(terminated.length) },
      ],
    };
  },
};
