import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { engineMessages } from "../../../src/app/messages.js";
import { customerMessages, events } from "../../../src/db/schema/index.js";
import { deliverMessage } from "../../../src/messages/index.js";
import { paidByCard, payFirstCharge } from "../../support/paid-by-card.js";
import { createSubscription } from "../charging/fixtures.js";
import { type ApiHarness, createApiHarness } from "./support.js";

/**
 * The customer's messages and what they want sent, over HTTP on a listening server: a customer's
 * messages newest first, one with its bodies, a resend (a new pending message naming the one it
 * repeats and who asked); and PATCH /v1/customers/:id, whose bad fields are named and whose opt-outs
 * keep the messages of later events from being written at all.
 */

let api: ApiHarness;
let base: string;
let paid: Awaited<ReturnType<typeof paidByCard>>;

function call(method: string, path: string, { body, key = api.key }: { body?: unknown; key?: string } = {}) {
  return fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const messagesOf = async (customerId: string, query = "") =>
  (await call("GET", `/v1/customers/${customerId}/messages${query}`)).json();

beforeAll(async () => {
  api = await createApiHarness();
  base = await api.app.listen({ port: 0, host: "127.0.0.1" });
  api.h.ctx.publicUrl = base;
  paid = await paidByCard(api.h);
}, 60_000);
afterAll(() => api?.close());

describe("a customer's messages", () => {
  it("lists the receipt message the payment wrote, and filters by status and kind", async () => {
    const listed = await messagesOf(paid.sub.customerId);
    expect(listed).toEqual({
      data: [
        expect.objectContaining({
          customer_id: paid.sub.customerId,
          kind: "receipt",
          language: "en",
          to: paid.sub.email,
          status: "pending",
          charge_id: paid.chargeId,
          resend_of: null,
          requested_by: "system",
        }),
      ],
      has_more: false,
    });
    expect(listed.data[0]).not.toHaveProperty("html");
    expect((await messagesOf(paid.sub.customerId, "?kind=receipt&status=pending")).data).toHaveLength(1);
    expect((await messagesOf(paid.sub.customerId, "?kind=payment_due")).data).toEqual([]);
    const bad = await call("GET", `/v1/customers/${paid.sub.customerId}/messages?status=lost&kind=spam`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.map((e: { field: string }) => e.field)).toEqual(["status", "kind"]);
    expect((await call("GET", `/v1/customers/${randomUUID()}/messages`)).status).toBe(404);
  });

  it("shows a message with its subject, text and HTML once rendered", async () => {
    const [pending] = (await messagesOf(paid.sub.customerId)).data;
    const before = await (await call("GET", `/v1/messages/${pending.id}`)).json();
    expect(before).toMatchObject({ id: pending.id, subject: null, text: null, html: null });
    // No SMTP_URL here: the message worker renders it and keeps it for the mailbox.
    expect(await deliverMessage(engineMessages(api.h.ctx), pending.id)).toMatchObject({ status: "kept" });
    const shown = await (await call("GET", `/v1/messages/${pending.id}`)).json();
    expect(shown).toMatchObject({
      id: pending.id,
      status: "kept",
      subject: expect.stringContaining("RCT-000001"),
    });
    expect(shown.text).toContain("RCT-000001");
    expect(shown.html).toContain("<html");
    expect((await call("GET", `/v1/messages/${randomUUID()}`)).status).toBe(404);
  });

  it("sends a message again as a new pending message naming the original and who asked", async () => {
    const [original] = (await messagesOf(paid.sub.customerId)).data;
    const reader = await createApiKey(api.h.ctx.db, { name: "reader", readOnly: true });
    const refused = await call("POST", `/v1/messages/${original.id}/resend`, { key: reader.key });
    expect(refused.status).toBe(403);
    expect((await call("GET", `/v1/messages/${original.id}`, { key: reader.key })).status).toBe(200);

    const resent = await call("POST", `/v1/messages/${original.id}/resend`);
    expect(resent.status).toBe(201);
    const copy = await resent.json();
    expect(copy).toMatchObject({
      kind: "receipt",
      status: "pending",
      resend_of: original.id,
      requested_by: `api:${api.keyId}`,
      to: paid.sub.email,
      text: null,
    });
    expect(copy.id).not.toBe(original.id);
    const newestFirst = await messagesOf(paid.sub.customerId, "?limit=1");
    expect(newestFirst).toEqual({ data: [expect.objectContaining({ id: copy.id })], has_more: true });
    const next = await messagesOf(paid.sub.customerId, `?limit=1&starting_after=${copy.id}`);
    expect(next).toEqual({
      data: [expect.objectContaining({ id: original.id, status: "kept" })],
      has_more: false,
    });
    expect((await call("POST", `/v1/messages/${randomUUID()}/resend`)).status).toBe(404);
  });
});

describe("PATCH /v1/customers/:id", () => {
  it("names each bad field", async () => {
    const cases = [
      {
        body: { time_zone: "Mars/Olympus" },
        field: "time_zone",
        message: "time_zone must be an IANA time zone, e.g. Asia/Qatar",
      },
      { body: { message_opt_outs: ["receipt", "spam"] }, field: "message_opt_outs.1" },
      { body: { message_opt_outs: "receipt" }, field: "message_opt_outs" },
      { body: { language: "fr" }, field: "language", message: "language must be one of en, ar" },
      { body: { phone: "5555" }, field: "phone" },
      { body: { email: "new@example.qa" }, field: "email", message: "unknown field" },
    ];
    for (const { body, field, message } of cases) {
      const response = await call("PATCH", `/v1/customers/${paid.sub.customerId}`, { body });
      expect(response.status, field).toBe(400);
      expect((await response.json()).errors, field).toEqual([
        { field, location: "body", message: message ?? expect.any(String) },
      ]);
    }
    const unknown = await call("PATCH", `/v1/customers/${randomUUID()}`, { body: { language: "ar" } });
    expect(unknown.status).toBe(404);
  });

  it("changes only the fields given, and records who changed which", async () => {
    const response = await call("PATCH", `/v1/customers/${paid.sub.customerId}`, {
      body: {
        language: "ar",
        time_zone: "asia/qatar",
        message_opt_outs: ["renewal_upcoming", "renewal_upcoming"],
      },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: paid.sub.customerId,
      email: paid.sub.email,
      name: "Test Customer",
      language: "ar",
      time_zone: "Asia/Qatar",
      message_opt_outs: ["renewal_upcoming"],
    });
    const cleared = await call("PATCH", `/v1/customers/${paid.sub.customerId}`, {
      body: { time_zone: null, name: "Noor" },
    });
    expect(await cleared.json()).toMatchObject({ name: "Noor", time_zone: null, language: "ar" });
    const logged = await api.h.ctx.db
      .select({ actor: events.actor, data: events.data })
      .from(events)
      .where(and(eq(events.type, "customer.updated"), eq(events.customerId, paid.sub.customerId)));
    expect(logged).toEqual([
      {
        actor: `api:${api.keyId}`,
        data: { customer_id: paid.sub.customerId, fields: ["language", "time_zone", "message_opt_outs"] },
      },
      {
        actor: `api:${api.keyId}`,
        data: { customer_id: paid.sub.customerId, fields: ["name", "time_zone"] },
      },
    ]);
  });

  it("keeps an opted-out kind from being written for later events; the receipt is still issued", async () => {
    const sub = await createSubscription(api.h);
    const optOut = await call("PATCH", `/v1/customers/${sub.customerId}`, {
      body: { message_opt_outs: ["receipt"] },
    });
    expect((await optOut.json()).message_opt_outs).toEqual(["receipt"]);
    const chargeId = await payFirstCharge(api.h, sub.subscriptionId);
    expect((await call("GET", `/v1/charges/${chargeId}/receipt`)).status).toBe(200);
    expect((await messagesOf(sub.customerId)).data).toEqual([]);
    const written = await api.h.ctx.db
      .select()
      .from(customerMessages)
      .where(eq(customerMessages.customerId, sub.customerId));
    expect(written).toEqual([]);
  });
});
