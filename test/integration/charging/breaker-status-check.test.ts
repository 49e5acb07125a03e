import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { breakerState, resumeCollection } from "../../../src/breaker/index.js";
import { ChargeOutcomeUnknownError, processCharge, startChargeWorker } from "../../../src/charging/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  attemptsOf,
  type CardSubscription,
  chargesOf,
  collections,
  createSubscription,
  eventually,
} from "./fixtures.js";

/**
 * A gateway whose status check is broken everywhere (every CheckStatus reply malformed) while it
 * drops the replies of payments it took: no attempt whose reply was lost can be settled. That is
 * the gateway's failure, not each charge's: the breaker opens once the status check has failed for
 * BREAKER_STATUS_CHECK_FAILURES attempts, no new payment is sent, and the attempts wait, uncounted,
 * to be reconciled when CheckStatus answers again, instead of going to review one by one.
 */
describe("the circuit breaker on a broken status check", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness({ chargeBatchSize: 1 });
    h.ctx.config = { ...h.ctx.config, BREAKER_STATUS_CHECK_FAILURES: 3, RECONCILE_MAX_TRIES: 2 };
  });
  afterEach(() => h?.close());

  const sql = () => h.ctx.db.$client;
  const fault = (spec: Record<string, unknown>) => h.simAdmin("POST", "/_sim/faults", spec);
  /** One run of the charge job for this charge, as a worker's retry would make it. */
  const unknownAgain = (chargeId: string) =>
    expect(processCharge(h.ctx, chargeId, { quietPeriodMs: 0 })).rejects.toBeInstanceOf(
      ChargeOutcomeUnknownError,
    );

  it("opens on CheckStatus failing for many attempts, sends nothing more, and holds the attempts for reconciliation", async () => {
    const subs: CardSubscription[] = [];
    for (let i = 0; i < 5; i += 1) subs.push(await createSubscription(h));
    await runBillingTick(h.ctx, { batchSize: 10 });
    const chargeIds = await Promise.all(
      subs.map(async (sub) => (await chargesOf(h, sub.subscriptionId))[0]!.id),
    );
    const [late, ...sent] = chargeIds as [string, ...string[]];
    await fault({ operation: "GetnewPayment", kind: "apply_then_drop" });
    await fault({ operation: "CheckStatus", kind: "malformed" });

    // Four payments taken, their replies lost.
    for (const id of sent) await unknownAgain(id);
    // Every status check fails; the third attempt it fails for opens the breaker.
    for (let round = 0; round < 4; round += 1) for (const id of sent) await unknownAgain(id);
    expect(await breakerState(sql())).toMatchObject({ open: true, signal: "status_check_failed" });
    const held = await sql()`select 1 from charges where status = 'needs_review'`;
    expect(held).toEqual([]);
    for (const id of sent) expect((await attemptsOf(h, id)).map((a) => a.status)).toEqual(["unknown"]);
    // A charge not sent yet is not sent while the status check is broken.
    expect(await processCharge(h.ctx, late, { quietPeriodMs: 0 })).toMatchObject({
      kind: "skipped",
      reason: "collection_paused",
    });
    expect(await collections(h, subs[0]!.cardToken)).toEqual([]);

    // CheckStatus answers again: the held attempts are reconciled, breaker still open.
    await h.simAdmin("DELETE", "/_sim/faults");
    startChargeWorker(h.ctx, { concurrency: 1, ratePerSecond: 100, quietPeriodMs: 0 });
    await runBillingTick(h.ctx, { batchSize: 10, stuckAfterMs: 0 });
    await eventually(async () => {
      const statuses = await sql()<{ status: string }[]>`
        select status::text as status from charges where id = any(${sent}::uuid[])`;
      expect(statuses.map((row) => row.status)).toEqual(sent.map(() => "paid"));
    });
    expect((await breakerState(sql())).open).toBe(true);

    // Resumed, the charge that waited is collected once; the database agrees with the ledger.
    await resumeCollection(h.ctx, { actor: "test" });
    await runBillingTick(h.ctx, { batchSize: 10 });
    await eventually(async () => {
      const [row] = await sql()<
        { status: string }[]
      >`select status::text as status from charges where id = ${late}`;
      expect(row?.status).toBe("paid");
    });
    for (const sub of subs) {
      expect((await collections(h, sub.cardToken)).map((p) => p.status)).toEqual(["SUCCESS"]);
    }
  });
});
