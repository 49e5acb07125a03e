import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { chargesOf, createSubscription } from "./fixtures.js";

/**
 * The tick bills set-based and hands charges to the queue in batch jobs, recording each dispatch in
 * Postgres: a charge whose job waits is not handed out again until its dispatch is overdue, or the
 * queue turns out to have lost it. No worker runs here; the jobs are read from the queue.
 */
describe("dispatching due charges", () => {
  let h: EngineHarness;
  const SUBSCRIPTIONS = 7;

  beforeEach(async () => {
    h = await createEngineHarness({ chargeBatchSize: 3 });
    for (let i = 0; i < SUBSCRIPTIONS; i += 1) await createSubscription(h);
  });
  afterEach(() => h?.close());

  async function queuedBatches(): Promise<string[][]> {
    const jobs = await h.ctx.queues.queue("charges").getJobs(["waiting", "prioritized", "delayed"]);
    return jobs.map((job) => (job.data as { chargeIds: string[] }).chargeIds);
  }

  async function allChargeIds(): Promise<string[]> {
    const rows = await h.ctx.db.$client<{ id: string }[]>`select id from charges`;
    return rows.map((row) => row.id).sort();
  }

  it("bills in batches and hands each batch out in jobs of CHARGE_BATCH_SIZE charges", async () => {
    expect(await runBillingTick(h.ctx, { batchSize: 4 })).toMatchObject({
      chargesCreated: SUBSCRIPTIONS,
      chargesEnqueued: SUBSCRIPTIONS,
    });

    const batches = await queuedBatches();
    // Billing batches of 4 and 3 subscriptions, each cut into jobs of at most 3 charges.
    expect(batches.map((b) => b.length).sort()).toEqual([1, 3, 3]);
    expect(batches.flat().sort()).toEqual(await allChargeIds());
    const undispatched = await h.ctx.db.$client`select id from charges where dispatched_at is null`;
    expect(undispatched).toHaveLength(0);
  });

  it("hands nothing out again while the jobs wait, and everything once the queue has lost them", async () => {
    await runBillingTick(h.ctx, { batchSize: 4 });
    expect(await runBillingTick(h.ctx, { batchSize: 4 })).toMatchObject({
      chargesCreated: 0,
      chargesEnqueued: 0,
    });
    expect((await queuedBatches()).flat()).toHaveLength(SUBSCRIPTIONS);

    await h.ctx.queues.obliterate();
    expect(await runBillingTick(h.ctx, { batchSize: 4 })).toMatchObject({
      chargesCreated: 0,
      chargesEnqueued: SUBSCRIPTIONS,
    });
    expect((await queuedBatches()).flat().sort()).toEqual(await allChargeIds());
  });

  it("hands a charge out again once its dispatch is overdue, even with jobs still queued", async () => {
    await runBillingTick(h.ctx, { batchSize: 10 });
    const [first] = await allChargeIds();
    await h.ctx.db.$client`update charges set dispatched_at = now() - interval '1 hour' where id = ${first!}`;

    expect(await runBillingTick(h.ctx, { batchSize: 10, redispatchAfterMs: 10 * 60_000 })).toMatchObject({
      chargesEnqueued: 1,
    });
    expect((await queuedBatches()).flat().filter((id) => id === first)).toHaveLength(2);
  });

  it("bills every period once when two ticks run at once", async () => {
    const [a, b] = await Promise.all([
      runBillingTick(h.ctx, { batchSize: 2 }),
      runBillingTick(h.ctx, { batchSize: 2 }),
    ]);

    expect(a.chargesCreated + b.chargesCreated).toBe(SUBSCRIPTIONS);
    const rows = await h.ctx.db.$client<{ subscription_id: string; n: number }[]>`
      select subscription_id, count(*)::int as n from charges group by subscription_id`;
    expect(rows).toHaveLength(SUBSCRIPTIONS);
    expect(rows.every((row) => row.n === 1)).toBe(true);
    // Both found the queue empty at their start, so a charge may be handed out by both: harmless.
    expect([...new Set((await queuedBatches()).flat())].sort()).toEqual(await allChargeIds());
  });

  it("finds due subscriptions through subscriptions_due_idx, in (next_billing_at, id) order", async () => {
    await h.ctx.db.$client`analyze subscriptions`;
    await h.ctx.db.$client`set enable_seqscan = off`;
    try {
      const plan = await h.ctx.db.$client.unsafe(`
        explain select s.id from subscriptions s
        where s.status in ('trialing', 'active') and s.next_billing_at is not null
          and s.next_billing_at <= now() and (s.next_billing_at, s.id) > ('-infinity', '00000000-0000-0000-0000-000000000000')
        order by s.next_billing_at, s.id limit 500`);
      const text = plan.map((row) => Object.values(row).join("")).join("\n");
      expect(text).toContain("subscriptions_due_idx");
      expect(text).not.toContain("Sort");
    } finally {
      await h.ctx.db.$client`reset enable_seqscan`;
    }
  });

  it("leaves a charge's next attempt to be dispatched afresh once it is claimed", async () => {
    const sub = await createSubscription(h);
    await runBillingTick(h.ctx, { batchSize: 50 });
    const [charge] = await chargesOf(h, sub.subscriptionId);
    await h.ctx.db.$client`
      update charges set status = 'processing', attempt_count = 1, next_attempt_at = null, dispatched_at = null
      where id = ${charge!.id}`;
    await h.ctx.db.$client`
      update charges set status = 'retrying', next_attempt_at = ${h.clock.now().toUTC().toISO()}::timestamptz
      where id = ${charge!.id}`;

    expect(await runBillingTick(h.ctx, { batchSize: 50 })).toMatchObject({ chargesEnqueued: 1 });
  });
});
