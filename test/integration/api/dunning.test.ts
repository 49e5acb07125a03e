import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { charges, subscriptions } from "../../../src/db/schema/index.js";
import { planOfSubscription } from "../../db/fixtures.js";
import { type ApiHarness, activeSubscription, createApiHarness, paidCharge } from "./support.js";

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

/** Approves the checkout that saves it, then declines every collection. */
const DECLINING_CARD = "4000000000000341";

/**
 * A subscription whose renewal was declined once: past_due, with its charge retrying and due at
 * `dueInHours` from now (what charging leaves behind after a soft decline).
 */
async function pastDue(
  email: string,
  dueInHours = 0,
  cardNumber?: string,
): Promise<{ subscriptionId: string; chargeId: string }> {
  const { subscriptionId } = await activeSubscription(api, email, cardNumber);
  const now = api.h.clock.now();
  await api.h.ctx.db
    .update(subscriptions)
    .set({ status: "past_due" })
    .where(eq(subscriptions.id, subscriptionId));
  const [charge] = await api.h.ctx.db
    .insert(charges)
    .values({
      subscriptionId,
      planId: planOfSubscription(subscriptionId),
      periodStart: now.toJSDate(),
      periodEnd: now.plus({ months: 1 }).toJSDate(),
      amountMinor: 10000,
      currency: "QAR",
      status: "retrying",
      attemptCount: 1,
      firstFailedAt: now.minus({ days: 1 }).toJSDate(),
      lastDeclineCode: "051",
      lastDeclineDescription: "Insufficient funds",
      nextAttemptAt: now.plus({ hours: dueInHours }).toJSDate(),
    })
    .returning({ id: charges.id });
  return { subscriptionId, chargeId: charge!.id };
}

describe("retry now", () => {
  it("collects a retrying charge at once with the saved card", async () => {
    const { subscriptionId, chargeId } = await pastDue("retry@example.qa", 72);
    const response = await api.call("POST", `/v1/charges/${chargeId}/retry`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      outcome: "paid",
      detail: null,
      checkout_url: null,
      charge: { id: chargeId, status: "paid", attempt_count: 2 },
    });
    const subscription = (await api.call("GET", `/v1/subscriptions/${subscriptionId}`)).json();
    expect(subscription.status).toBe("active");
  });

  it("answers a decline with the issuer's reason", async () => {
    const { chargeId } = await pastDue("declined@example.qa", 72, DECLINING_CARD);
    const response = await api.call("POST", `/v1/charges/${chargeId}/retry`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      outcome: "declined",
      detail: "Insufficient funds",
      charge: { id: chargeId, attempt_count: 2, last_decline_description: "Insufficient funds" },
    });
  });

  it("refuses to retry a paid charge, naming its state", async () => {
    const { subscriptionId } = await activeSubscription(api, "paid-retry@example.qa");
    const chargeId = await paidCharge(api, subscriptionId);
    const response = await api.call("POST", `/v1/charges/${chargeId}/retry`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: "charge_not_retryable", charge_status: "paid" });
  });

  it("404s an unknown charge", async () => {
    const response = await api.call("POST", `/v1/charges/${randomUUID()}/retry`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: "not_found" });
  });
});

describe("dunning run", () => {
  it("lists the due retries on a dry run, then collects them", async () => {
    const due = await pastDue("due@example.qa");
    const later = await pastDue("later@example.qa", 48);

    const dry = await api.call("POST", "/v1/dunning/run", { body: { dry_run: true } });
    expect(dry.statusCode).toBe(200);
    // A dry run attempts nothing: what it selected is all skipped, so the counts still add up.
    expect(dry.json()).toMatchObject({ dry_run: true, attempted: 0 });
    expect(dry.json().selected).toBe(dry.json().charges.length);
    expect(dry.json()).toMatchObject({
      skipped: dry.json().selected,
      skip_reasons: { dry_run: dry.json().selected },
    });
    const listed = dry.json().charges.map((c: { charge_id: string }) => c.charge_id);
    expect(listed).toContain(due.chargeId);
    expect(listed).not.toContain(later.chargeId);
    expect(dry.json().charges.find((c: { charge_id: string }) => c.charge_id === due.chargeId)).toMatchObject(
      {
        subscription_id: due.subscriptionId,
        amount: { amount: "100.00", amount_minor: 10000, currency: "QAR" },
        attempt_count: 1,
        outcome: null,
      },
    );

    const run = await api.call("POST", "/v1/dunning/run", { body: { subscription_id: due.subscriptionId } });
    expect(run.json()).toEqual({
      dry_run: false,
      selected: 1,
      attempted: 1,
      approved: 1,
      declined: 0,
      unknown: 0,
      needs_review: 0,
      deferred: 0,
      failed: 0,
      skipped: 0,
      skip_reasons: {},
      charges: [expect.objectContaining({ charge_id: due.chargeId, outcome: "paid" })],
    });
    expect(run.json().charges[0]).toMatchObject({ charge_id: due.chargeId, outcome: "paid" });

    // `all` takes retries that are not due yet; the paid one is no longer retrying.
    const all = await api.call("POST", "/v1/dunning/run", { body: { all: true, dry_run: true } });
    const everyRetrying = all.json().charges.map((c: { charge_id: string }) => c.charge_id);
    expect(everyRetrying).toContain(later.chargeId);
    expect(everyRetrying).not.toContain(due.chargeId);
  });

  it("runs with no body at all, and names a bad option", async () => {
    expect((await api.call("POST", "/v1/dunning/run")).statusCode).toBe(200);
    const bad = await api.call("POST", "/v1/dunning/run", { body: { dry_run: "yes", customer_id: "c1" } });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(["customer_id", "dry_run"]);
  });
});
