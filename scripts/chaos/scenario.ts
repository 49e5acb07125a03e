/**
 * What a chaos scenario is: a fresh world (harness options), a fault injected into a run of due
 * subscriptions, a settle, and the scenario's own expectations. Money checks common to every
 * scenario (no double charge, no lost period, database = ledger) are made by the runner
 * (scripts/chaos.ts) from the measurement; a scenario only adds what is particular to it.
 */
import { breakerState, resumeCollection } from "../../src/breaker/index.js";
import type { Harness, HarnessOptions } from "./harness.js";
import { settle, waitFor } from "./settle.js";

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface ScenarioRun {
  readonly h: Harness;
  /** Subscriptions to seed, all due now. */
  readonly n: number;
  /** performance.now() past which the scenario gives up (DeadlineError). */
  readonly deadline: number;
  /** Lines printed under the table: what happened on the way (restarts, resumes, hits). */
  readonly notes: string[];
}

export interface ScenarioOutcome {
  /** Milliseconds from the fault to settled. */
  readonly settleMs: number;
  readonly checks: readonly Check[];
  /** The gateway lost its state: its ledger cannot be compared with the database. */
  readonly gatewayForgot?: boolean;
}

export interface Scenario {
  readonly name: string;
  readonly title: string;
  readonly deadlineMs: number;
  readonly harness?: Omit<HarnessOptions, "name" | "databaseUrl" | "redisUrl" | "logDir">;
  run(run: ScenarioRun): Promise<ScenarioOutcome>;
}

/** Added latency of every GetnewPayment in the runs that are hit mid-way, so they last a few seconds. */
export const PACING_LATENCY_MS = 400;

export async function paceGateway(h: Harness): Promise<void> {
  await h.simPost("/_sim/faults", {
    operation: "GetnewPayment",
    kind: "latency",
    latency_ms: PACING_LATENCY_MS,
  });
}

/** Waits until `fraction` of the due periods are paid: the moment a fault hits "mid-run". */
export async function midRun({ h, deadline }: ScenarioRun, fraction: number): Promise<void> {
  await waitFor(`${fraction * 100}% paid`, deadline, async () => (await h.paidCount()) >= h.due * fraction);
}

export function allPaid(paid: number, due: number): Check {
  return { name: "every due period paid", ok: paid === due, detail: `${paid} of ${due}` };
}

/**
 * Settles a scenario in which the breaker should stay closed. If it opened all the same, that is
 * recorded as a failed expectation; collection is then resumed as an operator would
 * (resumeCollection), up to `maxResumes` times, so the money can still be checked at the end.
 */
export async function settleWithBreakerClosed(
  run: ScenarioRun,
  started: number,
  done?: () => Promise<boolean>,
  maxResumes = 3,
): Promise<{ settleMs: number; breakerCheck: Check }> {
  const openings: string[] = [];
  let settledAt = started;
  for (;;) {
    settledAt = await settle(run.h, run.deadline, done);
    const state = await breakerState(run.h.ctx.db.$client);
    if (!state.open || openings.length >= maxResumes) break;
    openings.push(`${state.signal}: ${state.reason}`);
    run.notes.push(`breaker opened (${state.signal}: ${state.reason}); resumed by the suite as an operator`);
    await resumeCollection(run.h.ctx, { actor: "chaos", note: "chaos suite: resume to finish the run" });
  }
  return {
    settleMs: settledAt - started,
    breakerCheck: {
      name: "breaker stays closed",
      ok: openings.length === 0,
      detail: openings.length === 0 ? "closed" : `opened ${openings.length}×: ${openings.join("; ")}`,
    },
  };
}
