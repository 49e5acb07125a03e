import { inArray } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { chargeAttempts, charges } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness, REDIS_URL } from "../../support/engine.js";
import { type CardSubscription, collections, createSubscription, eventually } from "./fixtures.js";

/** Deletes every key of this harness's queues (its prefix only: other suites share the Redis). */
async function wipeQueues(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL);
  try {
    let deleted = 0;
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 })) {
      if ((keys as string[]).length > 0) deleted += await redis.del(...(keys as string[]));
    }
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/**
 * Redis only dispatches: wiping it in the middle of a run loses nothing, because the due work is in
 * Postgres and the next tick enqueues it again.
 */
describe("a Redis wipe in the middle of a run", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness();
  });
  afterEach(() => h?.close());

  it("still makes every due charge exactly once", async () => {
    const subs: CardSubscription[] = [];
    for (let i = 0; i < 6; i += 1) subs.push(await createSubscription(h));
    const chargesOfRun = () =>
      h.ctx.db
        .select()
        .from(charges)
        .where(
          inArray(
            charges.subscriptionId,
            subs.map((s) => s.subscriptionId),
          ),
        );

    // A slow worker (2 charges a second), so the wipe lands while most charges are still queued.
    startChargeWorker(h.ctx, { concurrency: 1, ratePerSecond: 2 });
    expect(await runBillingTick(h.ctx, { batchSize: 4 })).toMatchObject({
      chargesCreated: 6,
      chargesEnqueued: 6,
    });
    await eventually(async () => {
      const rows = await chargesOfRun();
      expect(rows.filter((row) => row.status === "paid").length).toBeGreaterThanOrEqual(1);
    });

    expect(await wipeQueues(h.ctx.queues.prefix)).toBeGreaterThan(0);
    const stranded = (await chargesOfRun()).filter((row) => row.status === "scheduled");
    expect(stranded.length).toBeGreaterThan(0);

    const tick = await runBillingTick(h.ctx, { batchSize: 4 });
    expect(tick.chargesCreated).toBe(0);
    // Every stranded charge the worker did not happen to hold at the moment of the wipe.
    expect(tick.chargesEnqueued).toBeGreaterThan(0);
    expect(tick.chargesEnqueued).toBeLessThanOrEqual(stranded.length);
    const rows = await eventually(async () => {
      const all = await chargesOfRun();
      expect(all.map((row) => row.status)).toEqual(Array(6).fill("paid"));
      return all;
    }, 30_000);

    const attempts = await h.ctx.db
      .select()
      .from(chargeAttempts)
      .where(
        inArray(
          chargeAttempts.chargeId,
          rows.map((row) => row.id),
        ),
      );
    expect(attempts).toHaveLength(6);
    expect(attempts.every((attempt) => attempt.status === "approved")).toBe(true);
    const ledger = (await Promise.all(subs.map((sub) => collections(h, sub.cardToken)))).flat();
    expect(ledger).toHaveLength(rows.length);
    expect(new Set(ledger.map((payment) => payment.order_id))).toEqual(
      new Set(attempts.map((attempt) => attempt.orderId)),
    );
  });
});
