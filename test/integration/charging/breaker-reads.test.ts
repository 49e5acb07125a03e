import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { breakerState, resumeCollection } from "../../../src/breaker/index.js";
import { ChargeOutcomeUnknownError, processCharge, startChargeWorker } from "../../../src/charging/index.js";
import { latePaymentReport } from "../../../src/late-payments/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { tickAndCheck } from "../../support/tick.js";
import {
  attemptsOf,
  type CardSubscription,
  chargesOf,
  createSubscription,
  eventually,
  onlyCharge,
} from "./fixtures.js";

/**
 * An open circuit breaker stops new money-taking calls, never reads nor the refund of a duplicate.
 * The gateway here takes every payment minutes after it was asked (delayed_apply: the reply is
 * dropped and CheckStatus finds nothing until then), which is exactly what opens the breaker on
 * "not found". The payments it then applies must still be found, paid and refunded while the
 * breaker stays open: customers who paid must not keep unpaid charges, and charges retried before
 * it opened must not stay charged twice until an operator resumes.
 */
describe("reads and duplicate refunds while the circuit breaker is open", () => {
  let h: EngineHarness;
  /** On the simulator clock, shared with the engine: far longer than any call or quiet period. */
  const DELAY_MS = 120_000;

  beforeEach(async () => {
    h = await createEngineHarness({ chargeBatchSize: 1, gatewayTimeoutMs: 300 });
    h.ctx.config = { ...h.ctx.config, BREAKER_NOT_FOUND: 3 };
  });
  afterEach(() => h?.close());

  const sql = () => h.ctx.db.$client;
  const delayEveryPayment = () =>
    h.simAdmin("POST", "/_sim/faults", {
      operation: "GetnewPayment",
      kind: "delayed_apply",
      delay_ms: DELAY_MS,
    });
  /** Time passing on Postgres's clock, which the late-payment watch is scheduled on. */
  const lateCheckDue = () =>
    sql()`update charge_attempts set late_check_at = now() where late_check_at is not null`;
  const openBreaker = () =>
    sql()`insert into gateway_breaker (id, opened_at, reason, signal) values (1, now(), 'test', 'not_found')`;

  interface LedgerPayment {
    order_id: string | null;
    operation: string;
    status: string;
    card_token: string | null;
    refunded: boolean;
  }
  const collectionsOf = async (sub: CardSubscription) =>
    (await h.simAdmin<{ payments: LedgerPayment[] }>("GET", "/_sim/ledger")).payments.filter(
      (p) => p.operation === "GetnewPayment" && p.card_token === sub.cardToken && p.status === "SUCCESS",
    );

  /** No charge job left to run and no attempt left open. */
  const quiet = () =>
    eventually(async () => {
      const counts = await h.ctx.queues.queue("charges").getJobCounts("active", "waiting", "delayed");
      expect(counts).toEqual({ active: 0, waiting: 0, delayed: 0 });
      expect(await sql()`select 1 from charge_attempts where status in ('in_flight', 'unknown')`).toEqual([]);
    }, 30_000);

  it("a late-applying gateway opens the breaker; while it stays open the tick finds the late payments, applies them and refunds every duplicate", async () => {
    const subs: CardSubscription[] = [];
    for (let i = 0; i < 3; i += 1) subs.push(await createSubscription(h));
    await delayEveryPayment();
    startChargeWorker(h.ctx, { concurrency: 1, ratePerSecond: 100, quietPeriodMs: 0 });

    await tickAndCheck(h.ctx, { batchSize: 10 });
    await eventually(async () => expect((await breakerState(sql())).open).toBe(true));
    await quiet();
    const opened = await breakerState(sql());
    expect(opened.signal).toBe("not_found");

    // Every attempt was closed as "not found" and is watched; some charges were tried again before
    // the breaker opened, so the gateway will take them twice. It has taken nothing yet.
    const attempts = await sql()<{ status: string; watched: boolean }[]>`
      select status::text as status, late_check_at is not null as watched from charge_attempts`;
    expect(attempts.every((a) => a.status === "failed_permanently" && a.watched)).toBe(true);
    expect(attempts.length).toBeGreaterThan(subs.length);
    for (const sub of subs) expect(await collectionsOf(sub)).toEqual([]);

    // The gateway applies every payment it held; the breaker is still open.
    h.clock.advance({ milliseconds: DELAY_MS });
    await lateCheckDue();
    const tick = await tickAndCheck(h.ctx, { batchSize: 10 });
    expect(tick).toMatchObject({
      paused: true,
      chargesEnqueued: 0,
      lateChecks: attempts.length,
      latePaymentsFound: attempts.length,
      duplicatesRefunded: attempts.length - subs.length,
    });

    for (const sub of subs) {
      const charge = await onlyCharge(h, sub.subscriptionId, { status: "paid" });
      const taken = await collectionsOf(sub);
      // Every payment the gateway took for the period is one of ours, and all but one went back.
      expect(taken).toHaveLength((await attemptsOf(h, charge.id)).length);
      expect(taken.filter((p) => !p.refunded)).toHaveLength(1);
    }
    expect(await latePaymentReport(sql())).toMatchObject({
      watched: 0,
      foundLatePaid: subs.length,
      duplicatesDetected: attempts.length - subs.length,
      duplicatesLeft: 0,
    });
    // "Not found" answers while it was open neither closed nor moved it.
    expect(await breakerState(sql())).toMatchObject({ open: true, openedAt: opened.openedAt });

    // Resumed, nothing reopens it and nothing more is taken.
    await resumeCollection(h.ctx, { actor: "test" });
    expect(await tickAndCheck(h.ctx, { batchSize: 10 })).toMatchObject({
      paused: false,
      chargesEnqueued: 0,
    });
    expect((await breakerState(sql())).open).toBe(false);
    for (const sub of subs) expect(await collectionsOf(sub)).toHaveLength((await attemptsOfSub(sub)).length);
  });

  it("an attempt left unknown is reconciled from the tick while the breaker is open", async () => {
    const sub = await createSubscription(h);
    await h.simAdmin("POST", "/_sim/faults", {
      operation: "GetnewPayment",
      kind: "delayed_apply",
      delay_ms: DELAY_MS,
      times: 1,
    });
    await tickAndCheck(h.ctx, { batchSize: 10 });
    const [charge] = await chargesOf(h, sub.subscriptionId);
    // Sent, and its reply lost; then its job's retries ran out (here: the job is gone).
    await expect(processCharge(h.ctx, charge!.id)).rejects.toBeInstanceOf(ChargeOutcomeUnknownError);
    await h.ctx.queues.obliterate();
    await openBreaker();
    h.clock.advance({ milliseconds: DELAY_MS });
    startChargeWorker(h.ctx, { concurrency: 1, ratePerSecond: 100 });

    expect(await tickAndCheck(h.ctx, { batchSize: 10, stuckAfterMs: 0 })).toMatchObject({
      paused: true,
      reenqueued: 1,
    });
    await eventually(async () => {
      expect(await onlyCharge(h, sub.subscriptionId, { status: "paid" })).toBeDefined();
    });
    expect((await breakerState(sql())).open).toBe(true);
    expect((await collectionsOf(sub)).map((p) => p.refunded)).toEqual([false]);
  });

  async function attemptsOfSub(sub: CardSubscription) {
    const [charge] = await chargesOf(h, sub.subscriptionId);
    return attemptsOf(h, charge!.id);
  }
});
