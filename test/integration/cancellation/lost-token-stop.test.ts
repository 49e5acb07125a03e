import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cancelSubscription, startTokenDeactivationWorker } from "../../../src/cancellation/index.js";
import { paymentMethods, subscriptions } from "../../../src/db/schema/index.js";
import { tokenDeactivationJobId } from "../../../src/queue/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { jobRun } from "../app/jobs.js";
import { seedCard, seedSubscription, tokenStatus } from "../app/seed.js";

/**
 * A canceled subscription's card is stopped at the gateway by a job queued after the cancellation
 * commits. The charge worker and the scheduler only log a failed enqueue, and a Redis wipe loses a
 * queued one; Postgres still says "canceled, card live", so the tick must queue the stop again.
 */
const ANCHOR = DateTime.fromISO("2026-01-15T09:00:00Z", { zone: "utc" });

let h: EngineHarness;

beforeEach(async () => {
  h = await createEngineHarness({ start: "2026-02-20T12:00:00Z" });
});
afterEach(() => h?.close());

async function deactivatedAt(paymentMethodId: string) {
  const [row] = await h.ctx.db.select().from(paymentMethods).where(eq(paymentMethods.id, paymentMethodId));
  return row!.deactivatedAt;
}

describe("a token stop lost after the cancellation committed", () => {
  it("is queued again by the tick, and the card is stopped", async () => {
    const seeded = await seedSubscription(h, { anchor: ANCHOR });
    const { card, cardToken } = await seedCard(h, seeded);
    await cancelSubscription(h.ctx, {
      subscriptionId: seeded.subscription.id,
      mode: "immediately",
      actor: "api:test",
    });
    // Redis is wiped before any worker ran the stop.
    await h.ctx.queues.obliterate();
    expect(await deactivatedAt(card.id)).toBeNull();

    const worker = startTokenDeactivationWorker(h.ctx);
    try {
      const run = jobRun(worker, tokenDeactivationJobId(card.id));
      expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({
        tokenDeactivationsEnqueued: 1,
      });
      expect((await run).result).toMatchObject({ kind: "deactivated" });
    } finally {
      await worker.close();
    }
    expect(await deactivatedAt(card.id)).not.toBeNull();
    expect(await tokenStatus(h, cardToken)).not.toBe("active");
  });

  it("leaves alone a card that a live subscription still charges", async () => {
    const canceled = await seedSubscription(h, { anchor: ANCHOR });
    const { card } = await seedCard(h, canceled);
    const live = await seedSubscription(h, { anchor: ANCHOR, status: "paused" });
    await h.ctx.db
      .update(subscriptions)
      .set({ paymentMethodId: card.id })
      .where(eq(subscriptions.id, live.subscription.id));
    await cancelSubscription(h.ctx, {
      subscriptionId: canceled.subscription.id,
      mode: "immediately",
      actor: "api:test",
    });
    await h.ctx.queues.obliterate();

    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({
      tokenDeactivationsEnqueued: 0,
    });

    const queue = h.ctx.queues.queue("token-deactivation");
    expect(await queue.getJobState(tokenDeactivationJobId(card.id))).toBe("unknown");
    expect(await deactivatedAt(card.id)).toBeNull();
  });
});
