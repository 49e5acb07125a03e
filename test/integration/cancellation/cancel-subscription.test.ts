import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cancelSubscription,
  SubscriptionNotFoundError,
  startTokenDeactivationWorker,
} from "../../../src/cancellation/index.js";
import { charges, events, paymentMethods, subscriptions } from "../../../src/db/schema/index.js";
import { GatewayNotFoundError } from "../../../src/gateway/index.js";
import { tokenDeactivationJobId } from "../../../src/queue/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { jobRun } from "../app/jobs.js";
import { seedCard, seedCharge, seedSubscription, tokenStatus } from "../app/seed.js";

const ANCHOR = DateTime.fromISO("2026-01-15T09:00:00Z", { zone: "utc" });
const NOW = "2026-02-20T12:00:00.000Z";

let h: EngineHarness;
let worker: ReturnType<typeof startTokenDeactivationWorker>;

async function subscriptionRow(id: string) {
  const [row] = await h.ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row!;
}

async function eventTypes(subscriptionId: string) {
  const rows = await h.ctx.db
    .select({ type: events.type })
    .from(events)
    .where(eq(events.subscriptionId, subscriptionId))
    .orderBy(events.id);
  return rows.map((row) => row.type);
}

beforeAll(async () => {
  h = await createEngineHarness({ start: NOW });
  worker = startTokenDeactivationWorker(h.ctx);
});
afterAll(() => h?.close());

describe("cancel immediately", () => {
  it("ends the subscription now, cancels its open charges and stops its card through StopRecurring", async () => {
    const seeded = await seedSubscription(h, { anchor: ANCHOR });
    const { card, cardToken } = await seedCard(h, seeded);
    const open = await seedCharge(h, seeded.subscription.id, ANCHOR.plus({ months: 1 }), "retrying");
    const paid = await seedCharge(h, seeded.subscription.id, ANCHOR, "paid");
    const stopped = jobRun(worker, tokenDeactivationJobId(card.id));

    const result = await cancelSubscription(h.ctx, {
      subscriptionId: seeded.subscription.id,
      mode: "immediately",
      actor: "api:test",
      reason: "customer asked",
    });

    expect(result).toMatchObject({
      status: "canceled",
      unchanged: false,
      canceledChargeIds: [open.id],
      tokenDeactivations: [card.id],
    });
    expect(result.effectiveAt.toISO()).toBe(NOW);
    expect(await subscriptionRow(seeded.subscription.id)).toMatchObject({
      status: "canceled",
      canceledAt: new Date(NOW),
      nextBillingAt: null,
      endedReason: "customer asked",
    });
    const chargeRows = await h.ctx.db
      .select({ id: charges.id, status: charges.status, nextAttemptAt: charges.nextAttemptAt })
      .from(charges)
      .where(eq(charges.subscriptionId, seeded.subscription.id));
    expect(chargeRows).toEqual(
      expect.arrayContaining([
        { id: open.id, status: "canceled", nextAttemptAt: null },
        expect.objectContaining({ id: paid.id, status: "paid" }),
      ]),
    );

    const { result: outcome } = await stopped;
    expect(await eventTypes(seeded.subscription.id)).toEqual([
      "charge.canceled",
      "subscription.canceled",
      "payment_method.deactivated",
    ]);
    expect(outcome).toMatchObject({ kind: "deactivated", gatewayResult: "stopped" });
    const [stored] = await h.ctx.db.select().from(paymentMethods).where(eq(paymentMethods.id, card.id));
    expect(stored!.deactivatedAt).toEqual(new Date(NOW));
    expect(stored!.deactivationReason).toBe("stopped with StopRecurring");
    expect(await tokenStatus(h, cardToken)).toBe("deactivated");
    const collect = h.ctx.gateway.legacy.getNewPayment({ cardToken });
    await expect(collect).rejects.toBeInstanceOf(GatewayNotFoundError);
    await expect(collect).rejects.toMatchObject({ code: -7 });
  });

  it("canceling again changes nothing and queues no second stop", async () => {
    const seeded = await seedSubscription(h, { anchor: ANCHOR });
    const { card } = await seedCard(h, seeded);
    const stopped = jobRun(worker, tokenDeactivationJobId(card.id));
    const request = { subscriptionId: seeded.subscription.id, mode: "immediately", actor: "cli" } as const;
    await cancelSubscription(h.ctx, request);
    await stopped;

    const again = await cancelSubscription(h.ctx, request);

    expect(again).toMatchObject({ status: "canceled", unchanged: true, tokenDeactivations: [] });
    expect(await eventTypes(seeded.subscription.id)).toEqual([
      "subscription.canceled",
      "payment_method.deactivated",
    ]);
  });

  it("does not stop a card that another live subscription charges", async () => {
    const first = await seedSubscription(h, { anchor: ANCHOR });
    const { card } = await seedCard(h, first);
    const second = await seedSubscription(h, { anchor: ANCHOR });
    await h.ctx.db
      .update(subscriptions)
      .set({ paymentMethodId: card.id })
      .where(eq(subscriptions.id, second.subscription.id));

    const result = await cancelSubscription(h.ctx, {
      subscriptionId: first.subscription.id,
      mode: "immediately",
      actor: "cli",
    });

    expect(result.tokenDeactivations).toEqual([]);
  });

  it("refuses unknown subscriptions and malformed requests", async () => {
    await expect(
      cancelSubscription(h.ctx, {
        subscriptionId: "00000000-0000-4000-8000-000000000000",
        mode: "immediately",
        actor: "cli",
      }),
    ).rejects.toBeInstanceOf(SubscriptionNotFoundError);
    await expect(
      cancelSubscription(h.ctx, { subscriptionId: "nope", mode: "immediately", actor: "cli" }),
    ).rejects.toThrow(/subscriptionId/);
  });
});

describe("cancel at period end", () => {
  it("only sets cancel_at_period_end: the subscription keeps its period and its card", async () => {
    const seeded = await seedSubscription(h, { anchor: ANCHOR.plus({ months: 1 }) });
    await seedCard(h, seeded);

    const result = await cancelSubscription(h.ctx, {
      subscriptionId: seeded.subscription.id,
      mode: "at_period_end",
      actor: "api:test",
    });

    expect(result).toMatchObject({ status: "active", cancelAtPeriodEnd: true, tokenDeactivations: [] });
    expect(result.effectiveAt.toISO()).toBe("2026-03-15T09:00:00.000Z");
    const row = await subscriptionRow(seeded.subscription.id);
    expect(row).toMatchObject({ status: "active", cancelAtPeriodEnd: true, canceledAt: null });
    expect(row.nextBillingAt).toEqual(seeded.subscription.nextBillingAt);
    expect(await eventTypes(seeded.subscription.id)).toEqual(["subscription.cancel_scheduled"]);

    const again = await cancelSubscription(h.ctx, {
      subscriptionId: seeded.subscription.id,
      mode: "at_period_end",
      actor: "api:test",
    });
    expect(again.unchanged).toBe(true);
    expect(await eventTypes(seeded.subscription.id)).toHaveLength(1);
  });

  it("takes effect now for a subscription with no running period (paused)", async () => {
    const seeded = await seedSubscription(h, { anchor: ANCHOR, status: "paused" });

    const result = await cancelSubscription(h.ctx, {
      subscriptionId: seeded.subscription.id,
      mode: "at_period_end",
      actor: "cli",
    });

    expect(result).toMatchObject({ status: "canceled", cancelAtPeriodEnd: false });
    expect((await subscriptionRow(seeded.subscription.id)).status).toBe("canceled");
  });

  it("leaves a charge whose attempt is in flight to its outcome", async () => {
    const seeded = await seedSubscription(h, { anchor: ANCHOR });
    const inFlight = await seedCharge(h, seeded.subscription.id, ANCHOR.plus({ months: 1 }), "processing");

    const result = await cancelSubscription(h.ctx, {
      subscriptionId: seeded.subscription.id,
      mode: "immediately",
      actor: "cli",
    });

    expect(result.canceledChargeIds).toEqual([]);
    const [row] = await h.ctx.db.select().from(charges).where(eq(charges.id, inFlight.id));
    expect(row!.status).toBe("processing");
  });
});
