import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claimBatch, processCharge, startChargeWorker } from "../../../src/charging/index.js";
import { charges } from "../../../src/db/schema/index.js";
import { type DunningSummary, runDunning } from "../../../src/dunning/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  CARDS,
  type CardSubscription,
  chargesOf,
  createSubscription,
  eventually,
  replaceCard,
} from "./fixtures.js";

/**
 * A dunning run racing the charge workers: the charges it selected but did not attempt,
 * because a worker claimed, settled or is still sending them meanwhile, are counted as skipped, so
 * the summary adds up: selected = attempted + skipped, attempted = the sum of the outcomes.
 */
describe("dunning run racing the charge workers", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness({ start: "2026-01-15T09:00:00Z", gatewayTimeoutMs: 10_000 });
  });
  afterEach(() => h?.close());

  /** Retrying charges, due one day after their first declined attempt (made here, not on a worker). */
  async function dueRetries(count: number): Promise<{ subs: CardSubscription[]; chargeIds: string[] }> {
    const subs: CardSubscription[] = [];
    for (let i = 0; i < count; i += 1) subs.push(await createSubscription(h, { card: CARDS.alwaysDeclined }));
    await runBillingTick(h.ctx, { batchSize: 50 });
    const chargeIds: string[] = [];
    for (const sub of subs) {
      const [charge] = await chargesOf(h, sub.subscriptionId);
      await processCharge(h.ctx, charge!.id);
      chargeIds.push(charge!.id);
    }
    h.clock.advance("P1D");
    return { subs, chargeIds };
  }

  const expectSumsHold = (summary: DunningSummary) => {
    const outcomes =
      summary.approved +
      summary.declined +
      summary.unknown +
      summary.needsReview +
      summary.deferred +
      summary.failed;
    expect(summary.attempted).toBe(outcomes);
    expect(summary.selected).toBe(summary.attempted + summary.skipped);
    expect(summary.selected).toBe(summary.charges.length);
    expect(Object.values(summary.skipReasons).reduce((a, b) => a + b, 0)).toBe(summary.skipped);
  };

  it("counts a charge paid and one claimed by a worker after the selection as skipped, with reasons", async () => {
    const { subs, chargeIds } = await dueRetries(3);
    const [first, paidMeanwhile, inFlightElsewhere] = chargeIds as [string, string, string];
    // The run takes them in order of due time: `first` is collected first, the others after it.
    const [firstRow] = await chargesOf(h, subs[0]!.subscriptionId);
    await h.ctx.db
      .update(charges)
      .set({ nextAttemptAt: new Date(firstRow!.nextAttemptAt!.getTime() - 60_000) })
      .where(eq(charges.id, first));
    await replaceCard(h, subs[1]!, { card: CARDS.approves });
    // The gateway answers the run's first attempt slowly: the window in which the workers act.
    await h.simAdmin("POST", "/_sim/faults", {
      operation: "GetnewPayment",
      kind: "latency",
      latency_ms: 1_500,
      times: 1,
    });

    const running = runDunning(h.ctx, { concurrency: 1 });
    await eventually(async () => {
      const [row] = await chargesOf(h, subs[0]!.subscriptionId);
      expect(row!.status).toBe("processing");
    });
    // A worker collects the second charge, and another has claimed the third and is still sending it.
    expect(await processCharge(h.ctx, paidMeanwhile)).toMatchObject({ kind: "paid" });
    const [third] = await chargesOf(h, subs[2]!.subscriptionId);
    const claimed = await claimBatch(h.ctx, [third!], { actor: "system", forced: false });
    expect(claimed.has(inFlightElsewhere)).toBe(true);

    const summary = await running;
    expect(summary).toMatchObject({
      dryRun: false,
      selected: 3,
      attempted: 1,
      approved: 0,
      declined: 1,
      unknown: 0,
      needsReview: 0,
      deferred: 0,
      failed: 0,
      skipped: 2,
      skipReasons: { settled: 1, in_flight_elsewhere: 1 },
    });
    expect(Object.fromEntries(summary.charges.map((c) => [c.chargeId, "outcome" in c && c.outcome]))).toEqual(
      {
        [first]: "declined",
        [paidMeanwhile]: "skipped",
        [inFlightElsewhere]: "pending",
      },
    );
    expectSumsHold(summary);
  });

  it("adds up when the charge worker collects the same due charges at the same time", async () => {
    const { chargeIds } = await dueRetries(8);
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });

    const [summary] = await Promise.all([
      runDunning(h.ctx, { concurrency: 2 }),
      runBillingTick(h.ctx, { batchSize: 50 }),
    ]);
    expectSumsHold(summary);
    expect(summary.selected).toBeLessThanOrEqual(chargeIds.length);
    expect(summary.failed).toBe(0);
  });
});
