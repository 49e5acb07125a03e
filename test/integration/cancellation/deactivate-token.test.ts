import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deactivateToken, startTokenDeactivationWorker } from "../../../src/cancellation/index.js";
import { events, paymentMethods, subscriptions } from "../../../src/db/schema/index.js";
import { GatewayUnavailableError } from "../../../src/gateway/index.js";
import { enqueueTokenDeactivation, tokenDeactivationJobId } from "../../../src/queue/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { jobRun } from "../app/jobs.js";
import { seedCard, seedSubscription, tokenStatus } from "../app/seed.js";

const ANCHOR = DateTime.fromISO("2026-01-15T09:00:00Z", { zone: "utc" });

let h: EngineHarness;
let worker: ReturnType<typeof startTokenDeactivationWorker>;

/** A card of a subscription that is already canceled, so nothing charges it any more. */
async function retiredCard() {
  const seeded = await seedSubscription(h, { anchor: ANCHOR });
  const saved = await seedCard(h, seeded);
  await h.ctx.db
    .update(subscriptions)
    .set({ status: "canceled", canceledAt: h.clock.now().toJSDate(), nextBillingAt: null })
    .where(eq(subscriptions.id, seeded.subscription.id));
  return { ...seeded, ...saved };
}

async function cardRow(id: string) {
  const [row] = await h.ctx.db.select().from(paymentMethods).where(eq(paymentMethods.id, id));
  return row!;
}

async function deactivationEvents(paymentMethodId: string) {
  const rows = await h.ctx.db
    .select({ type: events.type, data: events.data })
    .from(events)
    .where(eq(events.type, "payment_method.deactivated"));
  return rows.filter((row) => row.data.payment_method_id === paymentMethodId);
}

beforeAll(async () => {
  h = await createEngineHarness({ start: "2026-02-20T12:00:00Z" });
  worker = startTokenDeactivationWorker(h.ctx);
});
afterAll(() => h?.close());
beforeEach(async () => {
  await h.simAdmin("DELETE", "/_sim/faults");
});

describe("deactivateToken", () => {
  it("stops the token, records when and why, and is a no-op the second time", async () => {
    const { card, cardToken } = await retiredCard();

    const first = await deactivateToken(h.ctx, card.id);
    const second = await deactivateToken(h.ctx, card.id);

    expect(first).toMatchObject({ kind: "deactivated", gatewayResult: "stopped" });
    expect(second).toMatchObject({ kind: "already_deactivated" });
    expect(await tokenStatus(h, cardToken)).toBe("deactivated");
    expect(await deactivationEvents(card.id)).toHaveLength(1);
  });

  it("counts -7 (the gateway no longer has the token live) as deactivated", async () => {
    const { card, cardToken } = await retiredCard();
    await h.ctx.gateway.legacy.stopRecurring({ cardToken });

    const outcome = await deactivateToken(h.ctx, card.id);

    expect(outcome).toMatchObject({ kind: "deactivated", gatewayResult: "not_found" });
    expect((await cardRow(card.id)).deactivationReason).toMatch(/-7/);
    expect((await deactivationEvents(card.id))[0]!.data).toMatchObject({ gateway_result: "not_found" });
  });

  it("throws on a transport failure, leaving the card live for the retry", async () => {
    const { card, cardToken } = await retiredCard();
    await h.simAdmin("POST", "/_sim/faults", { operation: "StopRecurring", kind: "error5xx", times: 1 });

    await expect(deactivateToken(h.ctx, card.id)).rejects.toBeInstanceOf(GatewayUnavailableError);
    expect((await cardRow(card.id)).deactivatedAt).toBeNull();
    expect(await tokenStatus(h, cardToken)).toBe("active");

    expect(await deactivateToken(h.ctx, card.id)).toMatchObject({
      kind: "deactivated",
      gatewayResult: "stopped",
    });
  });

  it("a lost reply is retried by the job and settles through -7", async () => {
    const { card, cardToken } = await retiredCard();
    await h.simAdmin("POST", "/_sim/faults", {
      operation: "StopRecurring",
      kind: "apply_then_drop",
      times: 1,
    });
    const run = jobRun(worker, tokenDeactivationJobId(card.id));

    await enqueueTokenDeactivation(h.ctx.queues, { paymentMethodId: card.id });
    const { result, failures } = await run;

    expect(failures).toHaveLength(1);
    expect(result).toMatchObject({ kind: "deactivated", gatewayResult: "not_found" });
    expect(await tokenStatus(h, cardToken)).toBe("deactivated");
  });

  it("does not stop the current card of a subscription that is not canceled", async () => {
    const seeded = await seedSubscription(h, { anchor: ANCHOR });
    const { card, cardToken } = await seedCard(h, seeded);

    expect(await deactivateToken(h.ctx, card.id)).toMatchObject({
      kind: "in_use",
      subscriptionId: seeded.subscription.id,
    });
    expect(await tokenStatus(h, cardToken)).toBe("active");
  });

  it("the token job fails for good on a card that does not exist", async () => {
    const missing = "00000000-0000-4000-8000-000000000001";
    const run = jobRun(worker, tokenDeactivationJobId(missing));

    await enqueueTokenDeactivation(h.ctx.queues, { paymentMethodId: missing });

    await expect(run).rejects.toThrow(/no payment method/);
  });
});
