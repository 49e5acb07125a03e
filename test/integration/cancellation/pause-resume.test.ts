import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IllegalTransitionError } from "../../../src/billing/index.js";
import {
  cancelSubscription,
  pauseSubscription,
  resumeSubscription,
} from "../../../src/cancellation/index.js";
import { events, subscriptions } from "../../../src/db/schema/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { seedSubscription } from "../app/seed.js";

/** 15 January 12:00 in Qatar (UTC+3); renewals fall on the 15th at 12:00 local time. */
const ANCHOR = DateTime.fromISO("2026-01-15T09:00:00Z", { zone: "utc" });

let h: EngineHarness;

async function subscriptionRow(id: string) {
  const [row] = await h.ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row!;
}

beforeAll(async () => {
  h = await createEngineHarness({ start: "2026-01-20T08:00:00Z" });
});
afterAll(() => h?.close());

describe("pause and resume", () => {
  it("pausing stops billing; resuming bills again from the next period boundary after now", async () => {
    h.clock.set("2026-01-20T08:00:00Z");
    const { subscription } = await seedSubscription(h, { anchor: ANCHOR });
    const request = { subscriptionId: subscription.id, actor: "api:test" };

    const paused = await pauseSubscription(h.ctx, { ...request, reason: "travelling" });

    expect(paused).toMatchObject({ unchanged: false });
    expect(await subscriptionRow(subscription.id)).toMatchObject({
      status: "paused",
      pausedAt: new Date("2026-01-20T08:00:00Z"),
      nextBillingAt: null,
    });
    expect(await pauseSubscription(h.ctx, request)).toMatchObject({ unchanged: true });

    h.clock.set("2026-03-20T10:00:00Z");
    const resumed = await resumeSubscription(h.ctx, request);

    expect(resumed.nextBillingAt.toISO()).toBe("2026-04-15T09:00:00.000Z");
    expect(await subscriptionRow(subscription.id)).toMatchObject({
      status: "active",
      pausedAt: null,
      currentPeriodStart: new Date("2026-03-15T09:00:00Z"),
      currentPeriodEnd: new Date("2026-04-15T09:00:00Z"),
      nextBillingAt: new Date("2026-04-15T09:00:00Z"),
    });
    expect(await resumeSubscription(h.ctx, request)).toMatchObject({ unchanged: true });
    const types = await h.ctx.db
      .select({ type: events.type })
      .from(events)
      .where(eq(events.subscriptionId, subscription.id))
      .orderBy(events.id);
    expect(types.map((row) => row.type)).toEqual(["subscription.paused", "subscription.resumed"]);
  });

  it("resuming exactly on a boundary bills at the following one", async () => {
    const { subscription } = await seedSubscription(h, { anchor: ANCHOR, status: "paused" });
    h.clock.set("2026-05-15T09:00:00Z");

    const resumed = await resumeSubscription(h.ctx, { subscriptionId: subscription.id, actor: "cli" });

    expect(resumed.nextBillingAt.toISO()).toBe("2026-06-15T09:00:00.000Z");
  });

  it("follows the state table: no pausing a trial or a debt, no resuming what is not paused", async () => {
    const trial = await seedSubscription(h, { anchor: ANCHOR, status: "past_due" });
    const unpaid = await seedSubscription(h, { anchor: ANCHOR, status: "unpaid" });

    await expect(
      pauseSubscription(h.ctx, { subscriptionId: trial.subscription.id, actor: "cli" }),
    ).rejects.toBeInstanceOf(IllegalTransitionError);
    await expect(
      resumeSubscription(h.ctx, { subscriptionId: unpaid.subscription.id, actor: "cli" }),
    ).rejects.toBeInstanceOf(IllegalTransitionError);
    expect((await subscriptionRow(unpaid.subscription.id)).status).toBe("unpaid");
  });

  it("resuming a live subscription set to cancel at period end clears the cancellation only", async () => {
    h.clock.set("2026-01-20T08:00:00Z");
    for (const status of ["active", "trialing", "past_due"] as const) {
      const { subscription } = await seedSubscription(h, { anchor: ANCHOR });
      // A trial carries its end (a table check); the seed only writes the other states.
      const trialEnd = status === "trialing" ? subscription.nextBillingAt : null;
      await h.ctx.db
        .update(subscriptions)
        .set({ status, trialEnd })
        .where(eq(subscriptions.id, subscription.id));
      const request = { subscriptionId: subscription.id, actor: "customer:portal" };
      await cancelSubscription(h.ctx, { ...request, mode: "at_period_end" });
      const before = await subscriptionRow(subscription.id);
      expect(before.cancelAtPeriodEnd).toBe(true);

      const resumed = await resumeSubscription(h.ctx, request);

      expect(resumed).toMatchObject({ unchanged: false });
      expect(resumed.nextBillingAt.toISO()).toBe("2026-02-15T09:00:00.000Z");
      const after = await subscriptionRow(subscription.id);
      expect(after).toMatchObject({
        status,
        cancelAtPeriodEnd: false,
        currentPeriodStart: before.currentPeriodStart,
        currentPeriodEnd: before.currentPeriodEnd,
        nextBillingAt: before.nextBillingAt,
      });
      // Nothing pending any more: resuming again is a no-op for an active one, refused for the others.
      if (status === "active") {
        expect(await resumeSubscription(h.ctx, request)).toMatchObject({ unchanged: true });
      } else {
        await expect(resumeSubscription(h.ctx, request)).rejects.toBeInstanceOf(IllegalTransitionError);
      }
      const types = await h.ctx.db
        .select({ type: events.type, actor: events.actor })
        .from(events)
        .where(eq(events.subscriptionId, subscription.id))
        .orderBy(events.id);
      expect(types).toEqual([
        { type: "subscription.cancel_scheduled", actor: "customer:portal" },
        { type: "subscription.cancel_unscheduled", actor: "customer:portal" },
      ]);
    }
  });

  it("a canceled subscription does not resume", async () => {
    h.clock.set("2026-01-20T08:00:00Z");
    const canceled = await seedSubscription(h, { anchor: ANCHOR });
    await cancelSubscription(h.ctx, {
      subscriptionId: canceled.subscription.id,
      actor: "cli",
      mode: "immediately",
    });
    await expect(
      resumeSubscription(h.ctx, { subscriptionId: canceled.subscription.id, actor: "cli" }),
    ).rejects.toBeInstanceOf(IllegalTransitionError);
  });
});
