import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { engineMessages } from "../../../src/app/messages.js";
import { creditNotes, customerMessages, receipts } from "../../../src/db/schema/index.js";
import { deliverMessage, documentUrl, resendMessage } from "../../../src/messages/index.js";
import { refundCharge } from "../../../src/refunds/index.js";
import { paidByCard } from "../../support/paid-by-card.js";
import { type ApiHarness, createApiHarness } from "../api/support.js";

/**
 * The ops mailbox over HTTP, behind the ops login: the list (newest first, filtered by links, a
 * page at a time, with the banner saying nothing is sent without SMTP), a message with its HTML in
 * a sandboxed frame that may run no script, and its Resend button behind the session's CSRF token.
 * And the charge page's receipt and credit notes, linked to what the customer got.
 */

let api: ApiHarness;
let base: string;
let cookie: string;
let keyId: string;
let paid: Awaited<ReturnType<typeof paidByCard>>;
let messageId: string;

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
const unescapeHtml = (text: string) =>
  text
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

const get = (url: string, as = cookie) =>
  fetch(`${base}${url}`, { redirect: "manual", headers: { cookie: as } });
const post = (url: string, fields: Record<string, string>, as = cookie) =>
  fetch(`${base}${url}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: as, origin: base },
    body: new URLSearchParams(fields).toString(),
  });

async function login(key: string): Promise<string> {
  const reply = await fetch(`${base}/ops/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ key }).toString(),
  });
  return reply.headers.get("set-cookie")?.split(";")[0] ?? "";
}

beforeAll(async () => {
  api = await createApiHarness();
  base = await api.app.listen({ port: 0, host: "127.0.0.1" });
  api.h.ctx.publicUrl = base;
  paid = await paidByCard(api.h);
  const [message] = await api.h.ctx.db
    .select()
    .from(customerMessages)
    .where(eq(customerMessages.customerId, paid.sub.customerId));
  messageId = message?.id ?? "";
  const key = await createApiKey(api.h.ctx.db, { name: "ops mailbox" });
  keyId = key.id;
  cookie = await login(key.key);
}, 60_000);
afterAll(() => api?.close());

describe("the mailbox", () => {
  it("is linked from the dashboard, needs the login, and says nothing is sent without SMTP", async () => {
    const dashboard = await (await get("/ops")).text();
    expect(dashboard).toContain('<a class="page" href="/ops/messages">Mailbox</a>');
    // Names and addresses someone gave are isolated, so a right-to-left override cannot reorder the page.
    expect(dashboard).toContain('<div class="who"><bdi>ops mailbox</bdi>');
    const anonymous = await fetch(`${base}/ops/messages`, { redirect: "manual" });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/ops/login");

    const page = await get("/ops/messages");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(
      '<p class="banner" id="no-smtp" role="status">No SMTP server is configured (SMTP_URL): messages are rendered and kept here, not sent.</p>',
    );
    expect(html).toContain(`<tr data-message="${messageId}">`);
    expect(html).toContain(`><bdi>${paid.sub.email}</bdi></a>`);
    expect(html).toContain('<span class="status-pending">pending</span>');
    expect(html).not.toContain("<script");
  });

  it("filters by status, kind and customer with plain links", async () => {
    const listed = async (query: string) => {
      const html = await (await get(`/ops/messages${query}`)).text();
      return [...html.matchAll(/<tr data-message="([^"]+)">/g)].map((m) => m[1]);
    };
    expect(await listed("?status=pending")).toEqual([messageId]);
    expect(await listed("?kind=receipt&status=pending")).toEqual([messageId]);
    expect(await listed("?kind=payment_due")).toEqual([]);
    expect(await listed(`?customer=${paid.sub.customerId}`)).toEqual([messageId]);
    const filtered = await (await get("/ops/messages?kind=receipt")).text();
    // Each filter link keeps the others.
    expect(filtered).toContain('href="/ops/messages?kind=receipt&amp;status=sent"');
    expect(filtered).toContain(`href="/ops/messages?kind=receipt&amp;customer=${paid.sub.customerId}"`);
    const bad = await get("/ops/messages?status=lost");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^status: /);
  });

  it("shows a message's headers, text, and HTML in a sandboxed frame that may run no script", async () => {
    expect(await deliverMessage(engineMessages(api.h.ctx), messageId)).toMatchObject({ status: "kept" });
    const [stored] = await api.h.ctx.db
      .select()
      .from(customerMessages)
      .where(eq(customerMessages.id, messageId));
    const page = await get(`/ops/messages/${messageId}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const html = await page.text();
    expect(html).not.toContain("<script");
    expect(html).toContain(`<dd id="message-status" class="status-kept">kept</dd>`);
    expect(html).toContain(`<dd id="message-subject"><bdi>${stored?.subject}</bdi></dd>`);
    expect(html).toContain(`<dt>To</dt><dd><bdi>${paid.sub.email}</bdi></dd>`);
    expect(html).toContain('<pre class="mail-text" id="message-text">');
    const frame = /<iframe [^>]*>/.exec(html)?.[0] ?? "";
    expect(frame).toContain('sandbox="allow-popups allow-popups-to-escape-sandbox"');
    expect(frame).not.toContain("allow-scripts");
    expect(frame).not.toContain("allow-same-origin");
    const srcdoc = /srcdoc="([^"]*)"/.exec(frame)?.[1] ?? "";
    expect(srcdoc).not.toMatch(/[<>]/);
    expect(unescapeHtml(srcdoc)).toBe(stored?.htmlBody);
  });

  it("resends a message with the Resend button, only with the session's CSRF token", async () => {
    const page = await (await get(`/ops/messages/${messageId}`)).text();
    expect(page).toContain(`<form method="post" action="/ops/messages/${messageId}/resend"`);
    const forged = await post(`/ops/messages/${messageId}/resend`, {});
    expect(forged.status).toBe(403);

    const resent = await post(`/ops/messages/${messageId}/resend`, { csrf: csrfOf(page) });
    expect(resent.status).toBe(303);
    const location = resent.headers.get("location") ?? "";
    expect(location).toMatch(/^\/ops\/messages\/[0-9a-f-]{36}\?done=resent$/);
    const copyId = location.slice("/ops/messages/".length, location.indexOf("?"));
    const [copy] = await api.h.ctx.db.select().from(customerMessages).where(eq(customerMessages.id, copyId));
    expect(copy).toMatchObject({ resendOf: messageId, requestedBy: `ops:${keyId}`, status: "pending" });
    const shown = await (await get(location)).text();
    expect(shown).toContain('<p class="banner" id="notice" role="status">Resent:');
    expect(shown).toContain(`<a href="/ops/messages/${messageId}"><code>${messageId}</code></a>`);
  });

  it("offers no Resend to a read-only key, and refuses its POST", async () => {
    const reader = await login((await createApiKey(api.h.ctx.db, { name: "viewer", readOnly: true })).key);
    const page = await (await get(`/ops/messages/${messageId}`, reader)).text();
    expect(page).not.toContain("/resend");
    const refused = await post(`/ops/messages/${messageId}/resend`, { csrf: csrfOf(page) }, reader);
    expect(refused.status).toBe(403);
  });

  it("pages through the messages, newest first", async () => {
    for (let i = 0; i < 50; i++) await resendMessage(api.h.ctx, messageId, "test");
    const first = await (await get(`/ops/messages?customer=${paid.sub.customerId}`)).text();
    const ids = (html: string) => [...html.matchAll(/<tr data-message="([^"]+)">/g)].map((m) => m[1]);
    expect(ids(first)).toHaveLength(50);
    const older = /<a id="older" href="([^"]+)">/.exec(first)?.[1] ?? "";
    expect(older).toContain(`after=${ids(first).at(-1)}`);
    const second = await (await get(unescapeHtml(older))).text();
    // 52 in all: the original, the button's resend and these 50; the original is the oldest.
    expect(ids(second)).toEqual([expect.any(String), messageId]);
    expect(second).not.toContain('id="older"');
    expect(second).toContain("← Newest");
  });
});

describe("the charge page", () => {
  it("shows the receipt number and credit notes, linked to the signed documents", async () => {
    const refunded = await paidByCard(api.h);
    const refund = await refundCharge(api.h.ctx, { chargeId: refunded.chargeId, actor: "test" });
    const [receipt] = await api.h.ctx.db
      .select()
      .from(receipts)
      .where(eq(receipts.chargeId, refunded.chargeId));
    const [note] = await api.h.ctx.db.select().from(creditNotes).where(eq(creditNotes.refundId, refund.id));
    const html = await (await get(`/ops/charges/${refunded.chargeId}`)).text();
    const receiptUrl = documentUrl(api.h.ctx, "receipt", receipt?.id ?? "", "html");
    const noteUrl = documentUrl(api.h.ctx, "credit_note", note?.id ?? "", "html");
    expect(html).toContain(
      `<dd id="charge-receipt"><a href="${receiptUrl}" rel="noreferrer" target="_blank">RCT-000002</a>`,
    );
    expect(html).toContain(
      `<dd id="charge-credit-notes"><a href="${noteUrl}" rel="noreferrer" target="_blank">CN-000001</a>`,
    );
    expect((await fetch(receiptUrl)).status).toBe(200);

    const unpaid = await (await get(`/ops/charges/${paid.chargeId}`)).text();
    expect(unpaid).toContain('<dd id="charge-credit-notes">–</dd>');
  });
});
