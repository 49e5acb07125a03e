import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AttemptInFlightError,
  ChargeNotFoundError,
  callGateway,
  claimBatch,
  createGatewayLimiter,
  loadCharges,
  processChargeBatch,
  startChargeWorker,
} from "../../../src/charging/index.js";
import { enqueueChargeBatches } from "../../../src/queue/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  attemptsOf,
  type CardSubscription,
  chargesOf,
  collections,
  createSubscription,
  eventTypesOf,
  onlyCharge,
} from "./fixtures.js";

/**
 * What batching adds to the charge path: a batch is claimed, sent and settled together, and every
 * guarantee of one charge holds for each charge of a batch (no double charge, reconcile first, one
 * charge's trouble is its own).
 */
describe("a batch of charges", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness();
  });
  afterEach(() => h?.close());

  /** `n` subscriptions due now, billed by a tick; their jobs are dropped so only the test acts. */
  async function dueCharges(n: number) {
    const subs: CardSubscription[] = [];
    for (let i = 0; i < n; i += 1) subs.push(await createSubscription(h));
    expect(await runBillingTick(h.ctx, { batchSize: 50 })).toMatchObject({ chargesCreated: n });
    await h.ctx.queues.obliterate();
    const ids: string[] = [];
    for (const sub of subs) ids.push((await chargesOf(h, sub.subscriptionId))[0]!.id);
    return { subs, ids };
  }

  async function expectPaidOnce(subs: readonly CardSubscription[]) {
    for (const sub of subs) {
      const ledger = await collections(h, sub.cardToken);
      expect(ledger.map((p) => p.status)).toEqual(["SUCCESS"]);
      const [charge] = await chargesOf(h, sub.subscriptionId);
      expect(charge).toMatchObject({ status: "paid", paidTransactionId: ledger[0]!.transaction_id });
    }
  }

  it("is claimed, sent concurrently under the limiter and settled, each charge exactly once", async () => {
    const { subs, ids } = await dueCharges(5);
    const limiter = createGatewayLimiter({ maxInFlight: 2, ratePerSecond: 1000 });

    const { results, failures } = await processChargeBatch(h.ctx, ids, { limiter, flushMs: 5 });

    expect(failures.size).toBe(0);
    expect([...results.values()].map((r) => r.kind)).toEqual(["paid", "paid", "paid", "paid", "paid"]);
    await expectPaidOnce(subs);
    for (const sub of subs) {
      expect(await eventTypesOf(h, sub.subscriptionId)).toEqual(
        expect.arrayContaining(["charge.created", "charge.attempt_started", "charge.succeeded"]),
      );
    }
  });

  it("leaves out a charge claimed elsewhere since it was read, and claims the others", async () => {
    const { ids } = await dueCharges(3);
    const stale = await loadCharges(h.ctx.db, ids, { quietPeriodMs: 0 });
    const [elsewhere, ...rest] = ids as [string, ...string[]];
    // Another worker claims one charge from the same snapshot first.
    const first = await claimBatch(h.ctx, [stale.get(elsewhere)!.charge], { actor: "other", forced: false });
    expect([...first.keys()]).toEqual([elsewhere]);

    const claimed = await claimBatch(
      h.ctx,
      ids.map((id) => stale.get(id)!.charge),
      { actor: "system", forced: false },
    );

    expect([...claimed.keys()].sort()).toEqual([...rest].sort());
    expect(await attemptsOf(h, elsewhere)).toHaveLength(1);
    for (const id of rest)
      expect(claimed.get(id)).toMatchObject({ attemptNumber: 1, orderId: `chg_${id}_1` });
  });

  it("does not send a charge whose attempt another worker has in flight, and collects the rest", async () => {
    const { subs, ids } = await dueCharges(3);
    const snapshots = await loadCharges(h.ctx.db, ids, { quietPeriodMs: 0 });
    const busy = ids[0]!;
    await claimBatch(h.ctx, [snapshots.get(busy)!.charge], { actor: "other", forced: false });

    const { results, failures } = await processChargeBatch(h.ctx, ids);

    expect(failures.get(busy)).toBeInstanceOf(AttemptInFlightError);
    expect(results.has(busy)).toBe(false);
    await expectPaidOnce(subs.slice(1));
    expect(await collections(h, subs[0]!.cardToken)).toEqual([]);
  });

  it("killed half way (attempts committed, two of four sent): reconciled, never charged twice", async () => {
    const { subs, ids } = await dueCharges(4);
    const snapshots = await loadCharges(h.ctx.db, ids, { quietPeriodMs: 0 });
    const attempts = await claimBatch(
      h.ctx,
      ids.map((id) => snapshots.get(id)!.charge),
      { actor: "system", forced: false },
    );
    // The first two calls reach the gateway and take the money; then the process dies.
    for (const id of ids.slice(0, 2)) {
      const { paymentMethod, charge } = snapshots.get(id)!;
      const report = await callGateway(h.ctx, {
        cardToken: h.ctx.vault.decrypt(paymentMethod!.sealed),
        kind: paymentMethod!.kind,
        orderId: attempts.get(id)!.orderId,
        amount: { minor: charge.amountMinor, currency: charge.currency },
      });
      expect(report.kind).toBe("approved");
    }

    // The job is retried once the quiet period is over.
    const { results, failures } = await processChargeBatch(h.ctx, ids, { quietPeriodMs: 0 });

    expect(failures.size).toBe(0);
    expect(ids.map((id) => results.get(id)?.kind)).toEqual(["paid", "paid", "paid", "paid"]);
    await expectPaidOnce(subs);
    for (const id of ids.slice(0, 2)) {
      expect((await attemptsOf(h, id)).map((a) => [a.orderId, a.status])).toEqual([
        [`chg_${id}_1`, "approved"],
      ]);
    }
    for (const id of ids.slice(2)) {
      expect((await attemptsOf(h, id)).map((a) => [a.orderId, a.status])).toEqual([
        [`chg_${id}_1`, "failed_permanently"],
        [`chg_${id}_2`, "approved"],
      ]);
    }
  });

  it("keeps one bad row (a token that cannot be opened, a charge that does not exist) from blocking the others", async () => {
    const { subs, ids } = await dueCharges(3);
    const broken = subs[1]!;
    await h.ctx.db.$client`
      update payment_methods set token_tag = decode(repeat('00', 16), 'hex') where id = ${broken.paymentMethodId}`;
    const missing = randomUUID();

    const { results, failures } = await processChargeBatch(h.ctx, [...ids, missing]);

    expect(failures.get(missing)).toBeInstanceOf(ChargeNotFoundError);
    expect(failures.get(ids[1]!)).toBeInstanceOf(Error);
    expect(await attemptsOf(h, ids[1]!)).toEqual([]);
    await onlyCharge(h, broken.subscriptionId, { status: "scheduled" });
    expect([results.get(ids[0]!)?.kind, results.get(ids[2]!)?.kind]).toEqual(["paid", "paid"]);
    await expectPaidOnce([subs[0]!, subs[2]!]);
  });

  it("arrives as one job from addBulk and is collected by the charge worker", async () => {
    const { subs, ids } = await dueCharges(4);

    expect(await enqueueChargeBatches(h.ctx.queues, [ids.slice(0, 3), ids.slice(3)])).toBe(2);
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });

    for (const sub of subs) await onlyCharge(h, sub.subscriptionId, { status: "paid" });
    await expectPaidOnce(subs);
  });
});
