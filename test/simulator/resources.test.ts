import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Sim } from "./harness.js";

/** "Resources and their fields": request field rules and defaults, and the shapes of records. */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe("Checkout request (v1)", () => {
  it("needs amount and order_id", async () => {
    const noAmount = await sim.v1("/v1/payments/checkout", { order_id: "o", client: { email: "a@b.qa" } });
    expect(noAmount.status).toBe(400);
    expect(noAmount.body.error?.description).toMatch(/amount/);
    const noOrder = await sim.v1("/v1/payments/checkout", { amount: "1", client: { email: "a@b.qa" } });
    expect(noOrder.status).toBe(400);
    expect(noOrder.body.error?.description).toMatch(/order_id/);
  });

  it("defaults the currency to QAR and the language to en", async () => {
    const url = await sim.checkout({ amount: "12.5" });
    const page = await sim.get(new URL(url).pathname);
    expect(page.text).toContain('<html lang="en" dir="ltr">');
    expect(page.text).toContain("12.50 QAR");
  });

  it("takes the dot as the only decimal separator and refuses more decimals than the currency has", async () => {
    for (const amount of ["10,50", "1.005", "-1", "0", "abc"]) {
      const response = await sim.v1("/v1/payments/checkout", {
        amount,
        order_id: "o",
        client: { email: "a@b.qa" },
      });
      expect(response.status, amount).toBe(400);
    }
    expect(await sim.checkout({ amount: 10.25 })).toMatch(/\/checkout\//);
  });

  it("needs client.phone or client.email, and a valid e-mail", async () => {
    const neither = await sim.v1("/v1/payments/checkout", {
      amount: "1",
      order_id: "o",
      client: { name: "A" },
    });
    expect(neither.status).toBe(400);
    const badEmail = await sim.v1("/v1/payments/checkout", {
      amount: "1",
      order_id: "o",
      client: { email: "nope" },
    });
    expect(badEmail.status).toBe(400);
    await expect(sim.checkout({ client: { phone: "+97455555555" } })).resolves.toMatch(/checkout/);
  });

  it("validates language, success_url, failure_url and save_token", async () => {
    for (const extra of [
      { language: "fr" },
      { success_url: "not a url" },
      { failure_url: "ftp://x" },
      { save_token: "yes" },
    ]) {
      const response = await sim.v1("/v1/payments/checkout", {
        amount: "1",
        order_id: "o",
        client: { email: "a@b.qa" },
        ...extra,
      });
      expect(response.status, JSON.stringify(extra)).toBe(400);
    }
  });

  it("shows the page in Arabic, right to left, for language ar", async () => {
    const url = await sim.checkout({ language: "ar" });
    const page = await sim.get(new URL(url).pathname);
    expect(page.text).toContain('<html lang="ar" dir="rtl">');
    expect(page.text).toContain("رقم البطاقة");
  });
});

describe("Payment initialisation request (legacy AddTransaction)", () => {
  it("defaults currencyCode to QAR and lang to ar", async () => {
    const url = await sim.addTransaction({ amount: "7" });
    const page = await sim.get(new URL(url).pathname);
    expect(page.text).toContain('<html lang="ar" dir="rtl">');
    expect(page.text).toContain("7.00 QAR");
  });

  it("accepts lang=en and other enabled currencies with their own decimals", async () => {
    await sim.configure({ currencies: ["QAR", "KWD"] });
    const url = await sim.addTransaction({ lang: "en", currencyCode: "KWD", amount: "1.234" });
    const page = await sim.get(new URL(url).pathname);
    expect(page.text).toContain('<html lang="en" dir="ltr">');
    expect(page.text).toContain("1.234 KWD");
  });

  it("takes any characters in orderId and does not require it to be unique", async () => {
    const orderId = "طلب #1/ä b+c&d=e";
    const first = await sim.addTransaction({ orderId });
    const second = await sim.addTransaction({ orderId });
    expect(first).not.toBe(second);
    await sim.pay(second);
    const status = await sim.legacy("CheckStatus", { orderId });
    expect(status.body.payment?.transactionID).toBe((await sim.ledger()).payments[0]?.transaction_id);
  });

  it("needs a valid customerEmail", async () => {
    expect((await sim.legacy("AddTransaction", { orderId: "o", amount: "1" })).body).toEqual({ result: -10 });
    expect(
      (await sim.legacy("AddTransaction", { orderId: "o", amount: "1", customerEmail: "x@" })).body,
    ).toEqual({ result: -10 });
  });

  it("accepts the autoSave key under the parameter table's spelling autosave", async () => {
    const url = await sim.addTransaction({ orderId: "auto", autosave: "YES" });
    await sim.pay(url);
    const [token] = (await sim.ledger()).tokens;
    expect(token?.kind).toBe("autosave");
  });

  it("restricts the card type the page accepts with cardType", async () => {
    const url = await sim.addTransaction({ cardType: "credit", lang: "en" });
    const page = await sim.get(new URL(url).pathname);
    expect(page.text).toContain("Only credit cards are accepted");
    const debit = await sim.pay(url, { card_number: "4000056655665556" });
    expect(debit.status).toBe(422);
    expect(debit.body).toEqual({
      error: "Only credit cards are accepted for this payment.",
      field: "credit_only",
    });
    expect((await sim.pay(url)).body.status).toBe("SUCCESS");

    const debitOnly = await sim.addTransaction({ orderId: "d", cardType: "debit" });
    expect((await sim.pay(debitOnly)).status).toBe(422);
    expect((await sim.pay(debitOnly, { card_number: "4000056655665556" })).body.status).toBe("SUCCESS");
  });
});

describe("Payment record (CheckStatus result)", () => {
  it("has every field of the spec with its casing", async () => {
    const url = await sim.addTransaction({
      orderId: "rec",
      amount: "25.5",
      customerName: "Amal",
      customerPhone: "+97455555555",
      isRecurring: true,
    });
    await sim.pay(url);
    const { body } = await sim.legacy("CheckStatus", { orderId: "rec" });
    expect(body.result).toBe(1);
    const payment = body.payment!;
    expect(Object.keys(payment).sort()).toEqual(
      [
        "transactionID",
        "amount",
        "currencyCode",
        "customerEmail",
        "customerPhone",
        "customerName",
        "paymentDate",
        "paymentstate",
        "auth",
        "mode",
        "ExchangeRate",
        "PaidAmount",
        "token",
        "description",
        "refundState",
        "refundstatus",
        "refundDescription",
        "refundTransactionId",
      ].sort(),
    );
    expect(payment).toMatchObject({
      amount: "25.50",
      currencyCode: "QAR",
      customerEmail: "client@example.com",
      customerPhone: "+97455555555",
      customerName: "Amal",
      paymentDate: "2025-03-10T08:00:00Z",
      paymentstate: "SUCCESS",
      mode: "Test",
      ExchangeRate: "1",
      PaidAmount: "25.50",
      description: "Approved",
      refundState: false,
      refundstatus: null,
      refundDescription: null,
      refundTransactionId: null,
    });
    expect(payment.transactionID).toMatch(/^\d{12}$/);
    expect(payment.auth).toMatch(/^\d{6}$/);
    expect(typeof payment.token).toBe("string");
  });
});

describe("Card token", () => {
  it("carries the special characters + / = and |", async () => {
    const { token } = await sim.enroll();
    expect(token).toMatch(/\+/);
    expect(token).toMatch(/\//);
    expect(token).toMatch(/=/);
    expect(token).toMatch(/\|/);
  });

  it("several tokens of one client stay valid at once", async () => {
    const first = await sim.enroll({ kind: "autosave" });
    const second = await sim.enroll({ kind: "autosave" });
    for (const [i, { token }] of [first, second].entries()) {
      const reply = await sim.legacy("GetnewPayment", { cardToken: token, orderId: `c${i}`, amount: "3" });
      expect(reply.body.result).toBe(1);
    }
  });
});

describe("Refund result", () => {
  it("v1: refund_status, mode, refund_transaction_id", async () => {
    const url = await sim.checkout({ order_id: "v1-refund" });
    await sim.pay(url);
    const [payment] = (await sim.ledger()).payments;
    const response = await sim.v1("/v1/payments/refund", {
      transaction_id: payment?.transaction_id,
      order_id: "v1-refund",
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: "SUCCESS",
      result: {
        refund_status: "completed",
        mode: "test",
        refund_transaction_id: expect.stringMatching(/^\d{12}$/),
      },
    });
  });

  it("legacy: result, refundState, mode, refundTrnsactionId", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "legacy-refund" }));
    const response = await sim.legacy("Refund", { orderId: "legacy-refund" });
    expect(response.body).toEqual({
      result: 1,
      refundState: "SUCCESS",
      mode: "Test",
      refundTrnsactionId: expect.stringMatching(/^\d{12}$/),
    });
  });
});
