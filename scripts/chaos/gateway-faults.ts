/**
 * Scenarios where the gateway misbehaves: dropped replies, 5xx and hangs on GetnewPayment; payments
 * applied after the engine stopped waiting (late duplicates, to be refunded automatically); a
 * gateway that restarts having forgotten everything; a wrong API key. The last two are systemic:
 * the circuit breaker must open and nothing may be condemned (no unpaid subscription, no
 * uncollectible charge, no invoice).
 */
import { randomUUID } from "node:crypto";
import { breakerState, resumeCollection } from "../../src/breaker/index.js";
import { latePaymentReport } from "../../src/late-payments/index.js";
import { collections, readLedgerPayments } from "../bench/ledger.js";
import type { Harness } from "./harness.js";
import { measure } from "./measure.js";
import {
  allPaid,
  type Check,
  midRun,
  paceGateway,
  type Scenario,
  settleWithBreakerClosed,
} from "./scenario.js";
import { settle, waitFor } from "./settle.js";

interface Fault {
  readonly id: string;
  readonly kind: string;
  readonly hits: number;
}

async function faultHits(h: Harness): Promise<Fault[]> {
  const reply = await fetch(`${h.sim.url}/_sim/faults`);
  const body = (await reply.json()) as { faults: Fault[] } | Fault[];
  return Array.isArray(body) ? body : body.faults;
}

async function nothingCondemned(h: Harness): Promise<Check> {
  const m = await measure(h);
  return {
    name: "nothing condemned",
    ok: m.unpaidSubscriptions === 0 && m.uncollectible === 0 && m.invoices === 0,
    detail: `${m.unpaidSubscriptions} unpaid subscriptions, ${m.uncollectible} uncollectible charges, ${m.invoices} invoices`,
  };
}

async function breakerOpened(h: Harness): Promise<Check> {
  const state = await breakerState(h.ctx.db.$client);
  return {
    name: "breaker opened",
    ok: state.open,
    detail: state.open ? `${state.signal}: ${state.reason}` : "closed",
  };
}

export const gatewayFaults: Scenario = {
  name: "gateway-faults",
  title: "first GetnewPayment of each charge: apply_then_drop 20%, error5xx 10%, hang 5%",
  deadlineMs: 120_000,
  async run(run) {
    const { h } = run;
    // The first registered fault that hits wins, so the later ones hit a little less often.
    for (const [kind, probability] of [
      ["apply_then_drop", 0.2],
      ["error5xx", 0.1],
      ["hang", 0.05],
    ] as const) {
      await h.simPost("/_sim/faults", { operation: "GetnewPayment", kind, probability });
    }
    const started = performance.now();
    await h.seed(run.n);
    // Faults hit every charge's first attempt; retries then meet a healthy gateway, so the run
    // converges within a few quiet periods instead of one per unlucky retry.
    await waitFor("a first attempt of every charge", run.deadline, async () => {
      const [row] = await h.sql<{ n: string }[]>`select count(distinct charge_id) as n from charge_attempts`;
      return Number(row?.n ?? 0) >= h.due;
    });
    const hits = (await faultHits(h)).map((f) => `${f.kind} ${f.hits}`).join(", ");
    await fetch(`${h.sim.url}/_sim/faults`, { method: "DELETE" });
    run.notes.push(`fault hits on first attempts: ${hits}; faults removed`);
    const { settleMs, breakerCheck } = await settleWithBreakerClosed(run, started);
    return { settleMs, checks: [allPaid(await h.paidCount(), h.due), breakerCheck] };
  },
};

/** Fewer than BREAKER_NOT_FOUND (10): each late payment is first closed as "not found". */
const LATE_PAYMENTS = 8;
/** Longer than the quiet period (2 × GATEWAY_TIMEOUT_MS + 30 s), so the engine stops waiting first. */
const LATE_DELAY_MS = 40_000;

export const latePayment: Scenario = {
  name: "late-payment",
  title: `${LATE_PAYMENTS} GetnewPayments applied ${LATE_DELAY_MS / 1000} s late (delayed_apply)`,
  deadlineMs: 150_000,
  async run(run) {
    const { h } = run;
    await h.simPost("/_sim/faults", {
      operation: "GetnewPayment",
      kind: "delayed_apply",
      delay_ms: LATE_DELAY_MS,
      times: LATE_PAYMENTS,
    });
    const started = performance.now();
    await h.seed(run.n);
    // Settled only once every held payment was applied, found late and refunded as a duplicate.
    const { settleMs, breakerCheck } = await settleWithBreakerClosed(run, started, async () => {
      const late = await latePaymentReport(h.ctx.db.$client);
      return late.duplicatesDetected + late.foundLatePaid >= LATE_PAYMENTS && late.duplicatesLeft === 0;
    });
    const late = await latePaymentReport(h.ctx.db.$client);
    run.notes.push(
      `late payments: ${late.duplicatesDetected} duplicates detected, ${late.duplicatesRefunded} refunded, ${late.foundLatePaid} paid their charge late`,
    );
    return {
      settleMs,
      checks: [
        allPaid(await h.paidCount(), h.due),
        breakerCheck,
        {
          name: "every late duplicate detected and refunded",
          ok: late.duplicatesDetected === LATE_PAYMENTS && late.duplicatesLeft === 0,
          detail: `${late.duplicatesDetected} of ${LATE_PAYMENTS} detected, ${late.duplicatesLeft} left unrefunded`,
        },
      ],
    };
  },
};

export const gatewayForgets: Scenario = {
  name: "gateway-forgets",
  title: "gateway restarts mid-run without its state",
  deadlineMs: 100_000,
  harness: { simulatorStateFile: true },
  async run(run) {
    const { h } = run;
    await paceGateway(h);
    await h.seed(run.n);
    await midRun(run, 0.3);
    const started = performance.now();
    await h.restartSimulatorForgetting();
    run.notes.push(`simulator restarted without its state file at ${await h.paidCount()} paid`);
    const settledAt = await settle(h, run.deadline);
    return {
      settleMs: settledAt - started,
      gatewayForgot: true,
      checks: [await breakerOpened(h), await nothingCondemned(h)],
    };
  },
};

export const wrongKey: Scenario = {
  name: "wrong-key",
  title: "charge workers with a wrong GATEWAY_API_KEY, then fixed and resumed",
  deadlineMs: 120_000,
  harness: { chargeWorkerEnv: { GATEWAY_API_KEY: randomUUID() } },
  async run(run) {
    const { h } = run;
    await h.seed(run.n);
    await waitFor(
      "the breaker to open",
      run.deadline,
      async () => (await breakerState(h.ctx.db.$client)).open,
    );
    await settle(h, run.deadline);
    const opened = await breakerOpened(h);
    const charged = collections(await readLedgerPayments(h.sim.url)).length;
    const condemned = await nothingCondemned(h);
    const started = performance.now();
    await Promise.all(h.chargeWorkers().map((worker) => worker.replace(h.workerEnv())));
    const { resumed } = await resumeCollection(h.ctx, { actor: "chaos", note: "API key fixed" });
    run.notes.push(`breaker ${opened.detail}; key fixed, workers restarted, resumed: ${resumed}`);
    const { settleMs, breakerCheck } = await settleWithBreakerClosed(run, started);
    return {
      settleMs,
      checks: [
        opened,
        { name: "nothing charged with the wrong key", ok: charged === 0, detail: `${charged} collections` },
        condemned,
        allPaid(await h.paidCount(), h.due),
        { ...breakerCheck, name: "breaker stays closed after resume" },
      ],
    };
  },
};
