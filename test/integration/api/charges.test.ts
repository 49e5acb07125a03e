import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeAttempts, charges, invoices, refunds } from "../../../src/db/schema/index.js";
import { planOfSubscription } from "../../db/fixtures.js";
import { type ApiHarness, activeSubscription, createApiHarness, paidCharge } from "./support.js";

let api: ApiHarness;
let subscriptionId: string;
beforeAll(async () => {
  api = await createApiHarness();
  ({ subscriptionId } = await activeSubscription(api, "payer@example.qa"));
});
afterAll(() => api?.close());

const problem = (response: { json: () => unknown }) => response.json() as Record<string, unknown>;

async function unpaidCharge(monthsAhead: number): Promise<string> {
  const start = api.h.clock.now().plus({ months: monthsAhead });
  const [row] = await api.h.ctx.db
    .insert(charges)
    .values({
      subscriptionId,
      planId: planOfSubscription(subscriptionId),
      periodStart: start.toJSDate(),
      periodEnd: start.plus({ months: 1 }).toJSDate(),
      amountMinor: 10000,
      currency: "QAR",
      nextAttemptAt: start.toJSDate(),
    })
    .returning({ id: charges.id });
  return row!.id;
}

describe("charges", () => {
  it("shows a paid charge with its money and times", async () => {
    const chargeId = await paidCharge(api, subscriptionId, 10);
    const response = await api.call("GET", `/v1/charges/${chargeId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: chargeId,
      subscription_id: subscriptionId,
      status: "paid",
      amount: { amount: "100.00", amount_minor: 10000, currency: "QAR" },
      attempt_count: 1,
      next_attempt_at: null,
      paid_at: api.h.clock.now().toUTC().toISO(),
    });
    // What matching our records with the gateway's starts from: the paying transaction and every
    // attempt's orderId.
    const shown = response.json();
    expect(shown.paid_transaction_id).toEqual(expect.any(String));
    expect(shown.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        order_id: expect.any(String),
        status: "approved",
        transaction_id: shown.paid_transaction_id,
        duplicate: false,
      }),
    ]);
    const listed = (await api.call("GET", `/v1/charges?subscription_id=${subscriptionId}`)).json();
    expect(listed.data.find((c: { id: string }) => c.id === chargeId).attempts).toEqual(shown.attempts);
  });

  it("lists charges by subscription and status", async () => {
    const scheduled = await unpaidCharge(20);
    const all = (await api.call("GET", `/v1/charges?subscription_id=${subscriptionId}`)).json();
    expect(all.data.map((c: { id: string }) => c.id)).toContain(scheduled);
    const onlyScheduled = (await api.call("GET", "/v1/charges?status=scheduled")).json();
    expect(onlyScheduled.data.map((c: { id: string }) => c.id)).toContain(scheduled);
    expect(onlyScheduled.data.every((c: { status: string }) => c.status === "scheduled")).toBe(true);
    const none = (await api.call("GET", `/v1/charges?subscription_id=${randomUUID()}`)).json();
    expect(none).toEqual({ data: [], has_more: false });
    const bad = await api.call("GET", "/v1/charges?subscription_id=sub_1&status=lost");
    expect(bad.statusCode).toBe(400);
    expect(problem(bad).errors).toEqual([
      expect.objectContaining({ field: "subscription_id", location: "query" }),
      expect.objectContaining({ field: "status", location: "query" }),
    ]);
  });

  it("404s an unknown charge", async () => {
    expect((await api.call("GET", `/v1/charges/${randomUUID()}`)).statusCode).toBe(404);
    expect((await api.call("POST", `/v1/charges/${randomUUID()}/refund`)).statusCode).toBe(404);
  });
});

describe("refunds", () => {
  it("refunds a paid charge through the gateway: completed, recorded, with an event", async () => {
    const chargeId = await paidCharge(api, subscriptionId, 1);
    const response = await api.call("POST", `/v1/charges/${chargeId}/refund`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      charge_id: chargeId,
      refund_status: "completed",
      amount: { amount: "100.00", amount_minor: 10000, currency: "QAR" },
      gateway_refund_transaction_id: expect.stringMatching(/^\d{12}$/),
      settled_at: expect.any(String),
    });

    const [attempt] = await api.h.ctx.db
      .select()
      .from(chargeAttempts)
      .where(eq(chargeAttempts.chargeId, chargeId));
    expect(body.refunded_transaction_id).toBe(attempt?.gatewayTransactionId);
    const ledger = await api.h.simAdmin<{ refunds: { transaction_id: string; state: string }[] }>(
      "GET",
      "/_sim/ledger",
    );
    expect(ledger.refunds).toContainEqual(
      expect.objectContaining({ transaction_id: attempt?.gatewayTransactionId, state: "SUCCESS" }),
    );
    const [row] = await api.h.ctx.db.select().from(refunds).where(eq(refunds.id, body.id));
    expect(row).toMatchObject({ status: "completed", channel: "v1", requestedBy: `api:${api.keyId}` });

    const events = (await api.call("GET", `/v1/subscriptions/${subscriptionId}/events?limit=100`)).json();
    const refundEvents = events.data.filter((e: { charge_id: string }) => e.charge_id === chargeId);
    expect(refundEvents.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(["charge.refund_requested", "charge.refunded"]),
    );
  });

  it("refunds a charge once: a second refund is a 409 naming the first", async () => {
    const chargeId = await paidCharge(api, subscriptionId, 2);
    const first = await api.call("POST", `/v1/charges/${chargeId}/refund`);
    const second = await api.call("POST", `/v1/charges/${chargeId}/refund`);
    expect(second.statusCode).toBe(409);
    expect(problem(second)).toMatchObject({
      code: "refund_exists",
      refund_id: first.json().id,
      refund_status: "completed",
    });
  });

  it("refuses to refund a charge that is not paid, naming its state", async () => {
    const chargeId = await unpaidCharge(30);
    const response = await api.call("POST", `/v1/charges/${chargeId}/refund`);
    expect(response.statusCode).toBe(422);
    expect(problem(response)).toMatchObject({ code: "charge_not_refundable", charge_status: "scheduled" });
  });

  it("refuses to reconcile a charge that is not held for review, naming its state", async () => {
    const chargeId = await unpaidCharge(50);
    const response = await api.call("POST", `/v1/charges/${chargeId}/reconcile`);
    expect(response.statusCode).toBe(422);
    expect(problem(response)).toMatchObject({ code: "charge_not_held", charge_status: "scheduled" });
    const [row] = await api.h.ctx.db.select().from(charges).where(eq(charges.id, chargeId));
    expect(row).toMatchObject({ status: "scheduled", attemptCount: 0 });
  });

  it("answers 202 unknown when the gateway's answer is lost, and blocks another refund", async () => {
    const chargeId = await paidCharge(api, subscriptionId, 3);
    await api.h.simAdmin("POST", "/_sim/faults", {
      operation: "refund_v1",
      kind: "apply_then_drop",
      times: 1,
    });
    const response = await api.call("POST", `/v1/charges/${chargeId}/refund`);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ refund_status: "unknown", settled_at: null });
    const again = await api.call("POST", `/v1/charges/${chargeId}/refund`);
    expect(problem(again)).toMatchObject({ code: "refund_exists", refund_status: "unknown" });
  });

  it("records a refusal by the gateway as failed, which a later refund may retry", async () => {
    const chargeId = await paidCharge(api, subscriptionId, 4);
    const [attempt] = await api.h.ctx.db
      .select()
      .from(chargeAttempts)
      .where(eq(chargeAttempts.chargeId, chargeId));
    // Refunded behind the engine's back: the gateway refuses a second refund of the payment.
    await api.h.ctx.gateway.v1.refund({
      transactionId: attempt!.gatewayTransactionId!,
      orderId: attempt!.orderId,
    });
    const response = await api.call("POST", `/v1/charges/${chargeId}/refund`);
    expect(response.statusCode).toBe(422);
    expect(problem(response)).toMatchObject({ code: "refund_refused", refund_status: "failed" });
    expect((await api.call("POST", `/v1/charges/${chargeId}/refund`)).statusCode).toBe(422);
    const rows = await api.h.ctx.db.select().from(refunds).where(eq(refunds.chargeId, chargeId));
    expect(rows.map((r) => r.status)).toEqual(["failed", "failed"]);
  });
});

describe("invoices", () => {
  it("shows invoices by id and by subscription", async () => {
    const chargeId = await unpaidCharge(40);
    const [invoice] = await api.h.ctx.db
      .insert(invoices)
      .values({
        chargeId,
        status: "created",
        gatewayInvoiceId: 7001,
        number: "INV-7001",
        link: "https://gateway.example/invoice/7001",
        amountMinor: 10000,
        currency: "QAR",
      })
      .returning({ id: invoices.id });
    const fetched = await api.call("GET", `/v1/invoices/${invoice!.id}`);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toMatchObject({
      id: invoice!.id,
      charge_id: chargeId,
      subscription_id: subscriptionId,
      status: "created",
      number: "INV-7001",
      amount: { amount: "100.00", amount_minor: 10000, currency: "QAR" },
      gateway_invoice_id: 7001,
    });
    const listed = (await api.call("GET", `/v1/invoices?subscription_id=${subscriptionId}`)).json();
    expect(listed.data).toEqual([fetched.json()]);
    const other = (await api.call("GET", `/v1/invoices?subscription_id=${randomUUID()}`)).json();
    expect(other.data).toEqual([]);
    expect((await api.call("GET", `/v1/invoices/${randomUUID()}`)).statusCode).toBe(404);
  });
});
