import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { merchantSettings, receipts } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { paidByCard } from "../../support/paid-by-card.js";
import { chargesOf, createSubscription } from "../charging/fixtures.js";
import { type ApiHarness, createApiHarness } from "./support.js";

/**
 * Receipts and credit notes over HTTP, on a listening server: through the merchant API (JSON with
 * the signed links, and the PDF), and through the signed links themselves, which open without a
 * login and only as signed. Charges are paid the way billing pays them, so the paying transaction
 * issues the receipt.
 */

let api: ApiHarness;
let base: string;
let paid: Awaited<ReturnType<typeof paidByCard>>;
let receipt: Record<string, string>;

const get = (path: string, key: string | null = api.key) =>
  fetch(path.startsWith("http") ? path : `${base}${path}`, {
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
  });

const isPdf = async (response: Response) =>
  Buffer.from(await response.arrayBuffer())
    .subarray(0, 5)
    .toString("latin1") === "%PDF-";

beforeAll(async () => {
  api = await createApiHarness();
  base = await api.app.listen({ port: 0, host: "127.0.0.1" });
  api.h.ctx.publicUrl = base;
  paid = await paidByCard(api.h);
  receipt = await (await get(`/v1/charges/${paid.chargeId}/receipt`)).json();
}, 60_000);
afterAll(() => api?.close());

describe("a charge's receipt through the API", () => {
  it("is the numbered receipt with its amount and signed links", async () => {
    const [row] = await api.h.ctx.db.select().from(receipts).where(eq(receipts.chargeId, paid.chargeId));
    expect(receipt).toEqual({
      number: "RCT-000001",
      id: row?.id,
      charge_id: paid.chargeId,
      customer_id: paid.sub.customerId,
      issued_at: row?.issuedAt.toISOString(),
      amount: { amount: "100.00", amount_minor: 10_000, currency: "QAR" },
      tax: null,
      url: expect.stringMatching(new RegExp(`^${base}/documents/receipt/${row?.id}/[A-Za-z0-9_-]{43}$`)),
      pdf_url: `${receipt.url}.pdf`,
    });
  });

  it("is the PDF the customer gets, inline under its number, in the language asked for", async () => {
    for (const query of ["", "?lang=ar", "?lang=bilingual"]) {
      const response = await get(`/v1/charges/${paid.chargeId}/receipt.pdf${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("content-disposition")).toBe('inline; filename="RCT-000001.pdf"');
      expect(response.headers.get("cache-control")).toBe("private");
      expect(await isPdf(response)).toBe(true);
    }
    const bad = await get(`/v1/charges/${paid.chargeId}/receipt.pdf?lang=fr`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toEqual([
      expect.objectContaining({ field: "lang", location: "query" }),
    ]);
  });

  it("shows the tax included at the rate the receipt was issued at", async () => {
    await api.h.ctx.db.update(merchantSettings).set({ taxRateBp: 1500, taxLabel: "VAT" });
    try {
      const taxed = await paidByCard(api.h);
      const response = await (await get(`/v1/charges/${taxed.chargeId}/receipt`)).json();
      expect(response).toMatchObject({
        number: "RCT-000002",
        tax: {
          label: "VAT",
          rate_percent: 15,
          amount: { amount: "13.04", amount_minor: 1304, currency: "QAR" },
        },
      });
    } finally {
      await api.h.ctx.db.update(merchantSettings).set({ taxRateBp: 0 });
    }
  });

  it("is a 404 naming the state for a charge not paid, and a plain 404 for no charge", async () => {
    const sub = await createSubscription(api.h);
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    await api.h.ctx.queues.obliterate();
    const [unpaid] = await chargesOf(api.h, sub.subscriptionId);
    for (const path of [`/v1/charges/${unpaid?.id}/receipt`, `/v1/charges/${unpaid?.id}/receipt.pdf`]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({
        code: "receipt_not_issued",
        charge_status: "scheduled",
        detail: `charge ${unpaid?.id} has no receipt: it is scheduled, and a receipt is issued when a charge is paid`,
      });
    }
    const unknown = await get(`/v1/charges/${randomUUID()}/receipt`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe("not_found");
  });

  it("may be read with a read-only key", async () => {
    const { key } = await createApiKey(api.h.ctx.db, { name: "reader", readOnly: true });
    expect((await get(`/v1/charges/${paid.chargeId}/receipt`, key)).status).toBe(200);
    expect((await get(`/v1/charges/${paid.chargeId}/receipt`, null)).status).toBe(401);
  });
});

describe("a refund's credit note through the API", () => {
  it("is issued when the gateway accepts the refund, as JSON and as a PDF", async () => {
    const refunded = await paidByCard(api.h);
    const refund = await fetch(`${base}/v1/charges/${refunded.chargeId}/refund`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.key}` },
    });
    expect(refund.status).toBe(200);
    const { id: refundId } = await refund.json();
    const note = await (await get(`/v1/refunds/${refundId}/credit-note`)).json();
    expect(note).toMatchObject({
      number: "CN-000001",
      refund_id: refundId,
      charge_id: refunded.chargeId,
      customer_id: refunded.sub.customerId,
      amount: { amount: "100.00", amount_minor: 10_000, currency: "QAR" },
      tax: null,
      url: expect.stringMatching(new RegExp(`^${base}/documents/credit-note/${note.id}/[A-Za-z0-9_-]{43}$`)),
    });
    const pdf = await get(`/v1/refunds/${refundId}/credit-note.pdf`);
    expect(pdf.headers.get("content-disposition")).toBe('inline; filename="CN-000001.pdf"');
    expect(await isPdf(pdf)).toBe(true);
    const opened = await get(note.pdf_url, null);
    expect(opened.status).toBe(200);
    expect(await isPdf(opened)).toBe(true);
    expect((await get(`/v1/refunds/${randomUUID()}/credit-note`)).status).toBe(404);
  });
});

describe("signed document links", () => {
  it("open the receipt page and its PDF without a login, private to the customer", async () => {
    const page = await get(receipt.url ?? "", null);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("private");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain("RCT-000001");
    expect(html).toMatch(/<html lang="en"/);
    expect(await (await get(`${receipt.url}?lang=ar`, null)).text()).toMatch(/<html lang="ar"/);
    // RECEIPT_BILINGUAL prints Arabic over English for everyone, unless the link asks for one language.
    const { config } = api.h.ctx;
    api.h.ctx.config = { ...config, RECEIPT_BILINGUAL: true };
    try {
      const bilingual = await (await get(receipt.url ?? "", null)).text();
      expect(bilingual).toMatch(/<html lang="ar"/);
      expect(bilingual).toContain("Receipt");
      expect(await (await get(`${receipt.url}?lang=en`, null)).text()).toMatch(/<html lang="en"/);
    } finally {
      api.h.ctx.config = config;
    }

    const pdf = await get(receipt.pdf_url ?? "", null);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe('inline; filename="RCT-000001.pdf"');
    expect(pdf.headers.get("cache-control")).toBe("private");
    expect(await isPdf(pdf)).toBe(true);
  });

  it("answer the same 404 to a tampered signature, another document's id, or another kind", async () => {
    const url = receipt.url ?? "";
    const signature = url.slice(url.lastIndexOf("/") + 1);
    const tampered = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
    const attempts = [
      url.replace(signature, tampered),
      `${url.replace(signature, tampered)}.pdf`,
      url.replace(receipt.id ?? "", randomUUID()),
      url.replace("/receipt/", "/credit-note/"),
      url.replace(receipt.id ?? "", "not-an-id"),
      url.replace("/receipt/", "/invoice/"),
    ];
    for (const attempt of attempts) {
      const response = await get(attempt, null);
      expect(response.status, attempt).toBe(404);
      expect(await response.text()).toBe("This document link is not valid. / رابط المستند هذا غير صالح.");
    }
  });
});
