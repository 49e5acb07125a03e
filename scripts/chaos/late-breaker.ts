/**
 * A gateway that takes every payment a minute late (delayed_apply on every GetnewPayment, longer
 * than the quiet period): every status check says "not found", so the circuit breaker opens, as
 * designed. What it must not stop is reading: while it stays open (nobody resumes it here), the
 * payments the gateway then applies are found and paid, and every charge retried before it opened
 * has its second payment refunded. Ends with the breaker open, every period paid once, the
 * database equal to the ledger net of refunds, and no duplicate left unrefunded.
 */
import { breakerState } from "../../src/breaker/index.js";
import { latePaymentReport } from "../../src/late-payments/index.js";
import { allPaid, type Scenario } from "./scenario.js";
import { settle, waitFor } from "./settle.js";

/** Longer than the quiet period (2 × GATEWAY_TIMEOUT_MS + 30 s): every attempt is first "not found". */
const DELAY_MS = 70_000;
/**
 * "Not found" answers before the breaker opens. A charge job reconciles its whole batch (10) at
 * once and up to four run together, so at the default of 10 the breaker may open before any charge
 * is tried again; at 50, the first batches found "not found" are retried, and so charged twice.
 */
const NOT_FOUND_THRESHOLD = 50;

export const lateBreaker: Scenario = {
  name: "late-breaker",
  title: `every GetnewPayment applied ${DELAY_MS / 1000} s late: the breaker opens, late payments are found while it stays open`,
  deadlineMs: 240_000,
  harness: { engineEnv: { BREAKER_NOT_FOUND: String(NOT_FOUND_THRESHOLD) } },
  async run(run) {
    const { h } = run;
    await h.simPost("/_sim/faults", {
      operation: "GetnewPayment",
      kind: "delayed_apply",
      delay_ms: DELAY_MS,
    });
    const started = performance.now();
    await h.seed(run.n);
    await waitFor("the breaker to open", run.deadline, async () => (await breakerState(h.sql)).open);
    const opened = await breakerState(h.sql);
    run.notes.push(
      `breaker opened after ${((performance.now() - started) / 1000).toFixed(1)} s: ${opened.reason}`,
    );
    // Settled once every payment the gateway held was applied and found (nothing left watched),
    // every period is paid and every duplicate refunded, with the breaker still open.
    const settledAt = await settle(h, run.deadline, async () => {
      const late = await latePaymentReport(h.sql);
      return late.watched === 0 && late.duplicatesLeft === 0 && (await h.paidCount()) === h.due;
    });
    const late = await latePaymentReport(h.sql);
    const state = await breakerState(h.sql);
    run.notes.push(
      `late payments: ${late.foundLatePaid} paid their charge, ${late.duplicatesDetected} duplicates detected, ${late.duplicatesRefunded} refunded`,
    );
    return {
      settleMs: settledAt - started,
      checks: [
        {
          name: "breaker opened on not found",
          ok: opened.signal === "not_found",
          detail: `${opened.signal}: ${opened.reason}`,
        },
        {
          name: "breaker stayed open",
          ok: state.open && state.openedAt?.toMillis() === opened.openedAt?.toMillis(),
          detail: state.open ? `open since ${state.openedAt?.toISO()}` : "closed",
        },
        allPaid(await h.paidCount(), h.due),
        {
          name: "late payments found while open",
          ok: late.foundLatePaid > 0 && late.watched === 0,
          detail: `${late.foundLatePaid} charges paid by a late payment, ${late.watched} attempts still watched`,
        },
        {
          name: "0 duplicates left unrefunded while open",
          ok: late.duplicatesDetected > 0 && late.duplicatesLeft === 0,
          detail: `${late.duplicatesRefunded} of ${late.duplicatesDetected} refunded, ${late.duplicatesLeft} left`,
        },
      ],
    };
  },
};
