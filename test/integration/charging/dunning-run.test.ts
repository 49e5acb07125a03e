import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processCharge, startChargeWorker } from "../../../src/charging/index.js";
import { type DunningProgress, retryChargeNow, runDunning } from "../../../src/dunning/index.js";
import { chargeJobId } from "../../../src/queue/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  CARDS,
  type CardSubscription,
  chargesOf,
  collections,
  createSubscription,
  onlyCharge,
  replaceCard,
} from "./fixtures.js";

/** The operators' dunning run and "retry now", against the simulator (no charge worker unless said). */
describe("dunning run", () => {
  let h: EngineHarness;
  let declining: CardSubscription[];

  beforeEach(async () => {
    h = await createEngineHarness({ start: "2026-01-15T09:00:00Z" });
    declining = [
      await createSubscription(h, { card: CARDS.alwaysDeclined }),
      await createSubscription(h, { card: CARDS.alwaysDeclined }),
    ];
  });
  afterEach(() => h?.close());

  /** Bills the period and makes each charge's first attempt, here rather than on a worker. */
  async function firstAttempts(subs: CardSubscription[]) {
    await runBillingTick(h.ctx, { batchSize: 10 });
    const charges = [];
    for (const sub of subs) {
      const [charge] = await chargesOf(h, sub.subscriptionId);
      await processCharge(h.ctx, charge!.id);
      charges.push(charge!);
    }
    return charges;
  }

  const ledgerSize = async () =>
    (await Promise.all(declining.map((sub) => collections(h, sub.cardToken)))).flat().length;

  it("lists due retries on a dry run without calling the gateway, then collects them", async () => {
    const [first, second] = await firstAttempts(declining);
    expect(await ledgerSize()).toBe(2);

    expect((await runDunning(h.ctx, { dryRun: true })).charges).toHaveLength(0);
    const all = await runDunning(h.ctx, { dryRun: true, all: true });
    expect(all.charges.map((c) => c.chargeId).sort()).toEqual([first!.id, second!.id].sort());

    h.clock.advance("P1D");
    const dry = await runDunning(h.ctx, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, attempted: 0, approved: 0, declined: 0, unknown: 0 });
    expect(dry.charges).toHaveLength(2);
    expect(dry.charges[0]).toMatchObject({ attemptCount: 1, nextAttemptAt: "2026-01-16T09:00:00.000Z" });
    expect(
      (await runDunning(h.ctx, { dryRun: true, subscriptionId: declining[0]!.subscriptionId })).charges,
    ).toMatchObject([{ chargeId: first!.id }]);
    expect(
      (await runDunning(h.ctx, { dryRun: true, customerId: declining[1]!.customerId })).charges,
    ).toMatchObject([{ chargeId: second!.id }]);
    expect(await ledgerSize()).toBe(2);
    expect((await chargesOf(h, declining[0]!.subscriptionId))[0]!.attemptCount).toBe(1);

    const progress: DunningProgress[] = [];
    const run = await runDunning(h.ctx, { concurrency: 2, onProgress: (p) => progress.push(p) });
    expect(run).toMatchObject({ dryRun: false, attempted: 2, approved: 0, declined: 2, unknown: 0 });
    expect(run.charges.map((c) => "outcome" in c && c.outcome)).toEqual(["declined", "declined"]);
    // The report says where each charge is after the run, not where it was when selected.
    expect(run.charges.map((c) => [c.attemptCount, c.nextAttemptAt])).toEqual([
      [2, "2026-01-18T09:00:00.000Z"],
      [2, "2026-01-18T09:00:00.000Z"],
    ]);
    expect(progress.map((p) => [p.done, p.total])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(await ledgerSize()).toBe(4);
    for (const sub of declining) {
      expect((await chargesOf(h, sub.subscriptionId))[0]).toMatchObject({
        status: "retrying",
        attemptCount: 2,
        nextAttemptAt: new Date("2026-01-18T09:00:00Z"),
      });
    }
    // Nothing is due any more.
    expect(await runDunning(h.ctx)).toMatchObject({ attempted: 0, charges: [] });
  });

  it("collects every retrying charge with `all`, on the card each subscription has now", async () => {
    const [first] = await firstAttempts(declining);
    await replaceCard(h, declining[0]!, { card: CARDS.approves });

    const run = await runDunning(h.ctx, { all: true });
    expect(run).toMatchObject({ attempted: 2, approved: 1, declined: 1, unknown: 0 });
    expect((await chargesOf(h, declining[0]!.subscriptionId))[0]!.status).toBe("paid");
    // A paid charge is left alone by "retry now".
    expect(await retryChargeNow(h.ctx, first!.id)).toEqual({
      kind: "skipped",
      chargeId: first!.id,
      reason: "settled",
    });
  });

  it("answers pending when retry-now cannot learn the outcome, and the charge queue settles it", async () => {
    h.ctx.config = { ...h.ctx.config, QUEUE_BACKOFF_MS: 50 };
    const sub = await createSubscription(h);
    await runBillingTick(h.ctx, { batchSize: 10 });
    const [charge] = await chargesOf(h, sub.subscriptionId);
    // The tick's job would collect it; take it away so only retry-now acts first.
    await h.ctx.queues.queue("charges").remove(chargeJobId(charge!.id, 1));
    await h.simAdmin("POST", "/_sim/faults", {
      operation: "GetnewPayment",
      kind: "apply_then_drop",
      times: 1,
    });

    const result = await retryChargeNow(h.ctx, charge!.id);
    expect(result).toMatchObject({ kind: "pending", unknownOutcome: true });
    const queue = h.ctx.queues.queue("charges");
    expect(await queue.getJobState(chargeJobId(charge!.id, 1))).toBe("delayed");

    startChargeWorker(h.ctx, { concurrency: 1, ratePerSecond: 100 });
    await onlyCharge(h, sub.subscriptionId, { status: "paid" });
    expect(await collections(h, sub.cardToken)).toHaveLength(1);
  });
});
