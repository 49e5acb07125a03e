import { and, asc, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTick } from "../../../src/app/index.js";
import { customerMessages, events, subscriptions } from "../../../src/db/schema/index.js";
import { recordUpcomingNotices } from "../../../src/notices/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { seedSubscription } from "../app/seed.js";
import { createSubscription } from "../charging/fixtures.js";

/**
 * Notices before money moves, from the tick: a trial's end (always) and each renewal (unless
 * RENEWAL_NOTICE_DAYS is 0), once per subscription and period however many ticks run, each with
 * its customer message; none for a subscription that ends at its period's end, is paused or in debt.
 */

const START = "2026-01-15T09:00:00Z";
const at = (iso: string) => DateTime.fromISO(iso, { zone: "utc" });

async function noticesOf(h: EngineHarness, subscriptionId: string, type: string) {
  return h.ctx.db
    .select()
    .from(events)
    .where(and(eq(events.subscriptionId, subscriptionId), eq(events.type, type)))
    .orderBy(asc(events.id));
}

async function messagesOf(h: EngineHarness, customerId: string, kind: "trial_ending" | "renewal_upcoming") {
  return h.ctx.db
    .select()
    .from(customerMessages)
    .where(and(eq(customerMessages.customerId, customerId), eq(customerMessages.kind, kind)));
}

/** An active subscription without a card whose next period starts at `nextBillingAt`. */
async function activeUntil(
  h: EngineHarness,
  nextBillingAt: string,
  set: Partial<typeof subscriptions.$inferInsert> = {},
) {
  const seeded = await seedSubscription(h, { anchor: at(nextBillingAt).minus({ months: 1 }) });
  await h.ctx.db
    .update(subscriptions)
    .set({ nextBillingAt: at(nextBillingAt).toJSDate(), ...set })
    .where(eq(subscriptions.id, seeded.subscription.id));
  return seeded;
}

describe("notices before money moves", () => {
  let h: EngineHarness;

  beforeAll(async () => {
    h = await createEngineHarness({ start: START });
  }, 60_000);
  afterAll(() => h?.close());

  it("tells a trialing subscription once that its trial ends, three days ahead, with the first charge", async () => {
    const trial = await createSubscription(h, { trialDays: 7, kind: "autosave" });
    await runTick(h.ctx);
    expect(await noticesOf(h, trial.subscriptionId, "subscription.trial_ending")).toEqual([]);

    h.clock.set(trial.anchor.minus({ days: 3 }));
    for (let tick = 0; tick < 3; tick += 1) await runTick(h.ctx);
    h.clock.advance({ days: 2 });
    await runTick(h.ctx);

    const notices = await noticesOf(h, trial.subscriptionId, "subscription.trial_ending");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ actor: "scheduler", customerId: trial.customerId });
    expect(notices[0]!.occurredAt.toISOString()).toBe(trial.anchor.minus({ days: 3 }).toUTC().toISO());
    expect(notices[0]!.data).toEqual({
      trial_end: trial.anchor.toUTC().toISO(),
      amount_minor: 10_000,
      currency: "QAR",
      plan_id: trial.planId,
      plan_name: "Monthly",
      has_card: true,
      collection_method: "charge_automatically",
    });
    const messages = await messagesOf(h, trial.customerId, "trial_ending");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ eventId: notices[0]!.id, status: "pending", toAddress: trial.email });
  });

  it("tells an active subscription of each renewal once, with its plan price less its credit", async () => {
    h.clock.set("2026-03-01T09:00:00Z");
    const active = await activeUntil(h, "2026-03-06T09:00:00Z", { creditMinor: 2_500 });
    const ending = await activeUntil(h, "2026-03-06T09:00:00Z", { cancelAtPeriodEnd: true });
    const paused = await seedSubscription(h, { anchor: at("2026-02-06T09:00:00Z"), status: "paused" });
    const inDebt = await activeUntil(h, "2026-03-06T09:00:00Z", { status: "past_due" });
    const later = await activeUntil(h, "2026-03-20T09:00:00Z");

    await runTick(h.ctx);
    await runTick(h.ctx);

    const first = await noticesOf(h, active.subscription.id, "subscription.renewal_upcoming");
    expect(first.map((n) => n.data)).toEqual([
      {
        period_start: "2026-03-06T09:00:00.000Z",
        renews_on: "2026-03-06",
        amount_minor: 7_500,
        currency: "QAR",
        plan_id: active.plan.id,
        plan_name: "Gold monthly",
        trial_converts: false,
        collection_method: "charge_automatically",
      },
    ]);
    expect(await messagesOf(h, active.customer.id, "renewal_upcoming")).toHaveLength(1);
    for (const none of [ending, paused, inDebt, later]) {
      expect(await noticesOf(h, none.subscription.id, "subscription.renewal_upcoming")).toEqual([]);
    }

    // The period is billed (the credit with it); the next one is told of once, seven days ahead.
    h.clock.set("2026-03-06T09:00:00Z");
    await runTick(h.ctx);
    h.clock.set("2026-03-30T09:00:00Z");
    await runTick(h.ctx);
    await runTick(h.ctx);
    const both = await noticesOf(h, active.subscription.id, "subscription.renewal_upcoming");
    expect(both.map((n) => [n.data.period_start, n.data.amount_minor])).toEqual([
      ["2026-03-06T09:00:00.000Z", 7_500],
      ["2026-04-06T09:00:00.000Z", 10_000],
    ]);
    expect(await noticesOf(h, ending.subscription.id, "subscription.renewal_upcoming")).toEqual([]);
  });

  it("records one notice when two ticks sweep at once", async () => {
    h.clock.set("2026-05-01T09:00:00Z");
    const { subscription } = await activeUntil(h, "2026-05-04T09:00:00Z");
    const sweep = () =>
      recordUpcomingNotices(h.ctx, { now: h.clock.now(), renewalDays: 7, trialDays: 3, limit: 1 });
    await Promise.all([sweep(), sweep(), sweep()]);
    expect(await noticesOf(h, subscription.id, "subscription.renewal_upcoming")).toHaveLength(1);
  });
});

describe("with RENEWAL_NOTICE_DAYS=0", () => {
  let h: EngineHarness;

  beforeAll(async () => {
    h = await createEngineHarness({ start: START, env: { RENEWAL_NOTICE_DAYS: "0" } });
  }, 60_000);
  afterAll(() => h?.close());

  it("tells of no renewal, but still of a trial's end", async () => {
    const active = await activeUntil(h, "2026-01-17T09:00:00Z");
    const trial = await createSubscription(h, { trialDays: 2 });
    await runTick(h.ctx);
    expect(await noticesOf(h, active.subscription.id, "subscription.renewal_upcoming")).toEqual([]);
    const trialNotices = await noticesOf(h, trial.subscriptionId, "subscription.trial_ending");
    expect(trialNotices).toHaveLength(1);
    expect(trialNotices[0]!.data).toMatchObject({ has_card: true, amount_minor: 10_000 });
    expect(await messagesOf(h, trial.customerId, "trial_ending")).toHaveLength(1);
  });
});
