import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Sim } from "./harness.js";

/** "Errors": the v1 error body and every legacy result code with its condition. */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const ADD = { orderId: "o", amount: "10", customerEmail: "a@b.qa" };

describe("v1 error body {status, error: {error_code, description}}", () => {
  it("400 for a bad request, with the status number as error_code", async () => {
    const response = await sim.v1("/v1/payments/checkout", { order_id: "o" });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: "error",
      error: { error_code: "400", description: expect.stringMatching(/^Bad Request: amount/) },
    });
  });

  it("400 for an unreadable JSON body", async () => {
    const response = await sim.fetch("/v1/payments/checkout", {
      method: "POST",
      headers: { api_key: sim.apiKey, "content-type": "application/json" },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.error_code).toBe("400");
  });

  it("400 for a currency that is not ISO or not supported by the account", async () => {
    for (const currency of ["QQQ", "USD"]) {
      const response = await sim.v1("/v1/payments/checkout", {
        amount: "1",
        order_id: "o",
        currency,
        client: { email: "a@b.qa" },
      });
      expect(response.status, currency).toBe(400);
      expect(response.body.error?.description).toMatch(/currency/);
    }
  });

  it("404 refunding an unknown payment; 400 refunding twice or a failed payment", async () => {
    const unknown = await sim.v1("/v1/payments/refund", { transaction_id: "123", order_id: "nope" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.error_code).toBe("404");

    await sim.pay(await sim.checkout({ order_id: "paid" }));
    await sim.pay(await sim.checkout({ order_id: "failed" }), { cvv: "999" });
    const [paid, failed] = (await sim.ledger()).payments;
    const body = { transaction_id: paid?.transaction_id, order_id: "paid" };
    expect((await sim.v1("/v1/payments/refund", body)).status).toBe(200);
    const twice = await sim.v1("/v1/payments/refund", body);
    expect(twice.status).toBe(400);
    expect(twice.body.error?.description).toMatch(/already refunded/);
    const wrongOrder = await sim.v1("/v1/payments/refund", {
      transaction_id: paid?.transaction_id,
      order_id: "x",
    });
    expect(wrongOrder.status).toBe(404);
    const notPaid = await sim.v1("/v1/payments/refund", {
      transaction_id: failed?.transaction_id,
      order_id: "failed",
    });
    expect(notPaid.status).toBe(400);
  });

  it("400 for checkout when the merchant has card payments off", async () => {
    const noCard = await sim.createMerchant({ name: "No card", card: false });
    const response = await sim.v1(
      "/v1/payments/checkout",
      { amount: "1", order_id: "o", client: { email: "a@b.qa" } },
      { api_key: noCard },
    );
    expect(response.status).toBe(400);
  });
});

describe("legacy result codes (always HTTP 200)", () => {
  it("-1: unknown merchant, or a profile without card payments", async () => {
    expect(
      (await sim.legacy("AddTransaction", { ...ADD, token: "0f8fad5b-d9cb-469f-a165-70867728950e" })).body,
    ).toEqual({
      result: -1,
    });
    const noCard = await sim.createMerchant({ name: "No card", card: false });
    expect((await sim.legacy("AddTransaction", { ...ADD, token: noCard })).body).toEqual({ result: -1 });
  });

  it("-2: Refund and ValidatePayment of an unknown orderId", async () => {
    expect((await sim.legacy("Refund", { orderId: "nope" })).body).toEqual({ result: -2 });
    expect((await sim.legacy("ValidatePayment", { orderId: "nope" })).body).toEqual({ result: -2 });
    expect((await sim.legacy("CheckStatus", { orderId: "nope" })).body).toEqual({ result: 0 });
  });

  it("-2: Refund of an order whose only payment failed or is pending", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "failed" }), { cvv: "9" });
    await sim.addTransaction({ orderId: "pending" });
    expect((await sim.legacy("Refund", { orderId: "failed" })).body).toEqual({ result: -2 });
    expect((await sim.legacy("Refund", { orderId: "pending" })).body).toEqual({ result: -2 });
  });

  it("-3: a currency code that is not a valid ISO 4217 code", async () => {
    for (const currencyCode of ["QQQ", "QA", "dollars"]) {
      expect((await sim.legacy("AddTransaction", { ...ADD, currencyCode })).body, currencyCode).toEqual({
        result: -3,
      });
    }
  });

  it("-20: a valid ISO currency the merchant has no application data for", async () => {
    expect((await sim.legacy("AddTransaction", { ...ADD, currencyCode: "USD" })).body).toEqual({
      result: -20,
    });
    await sim.configure({ currencies: ["QAR", "USD"] });
    expect((await sim.legacy("AddTransaction", { ...ADD, currencyCode: "usd" })).body.result).toMatch(
      /checkout/,
    );
  });

  it("-7: GetnewPayment and StopRecurring on a token the merchant does not have or that is stopped", async () => {
    expect((await sim.legacy("GetnewPayment", { cardToken: "unknown|token==" })).body).toEqual({
      result: -7,
    });
    expect((await sim.legacy("StopRecurring", { cardToken: "unknown|token==" })).body).toEqual({
      result: -7,
    });
    const { token } = await sim.enroll();
    const other = await sim.createMerchant({ name: "Other" });
    expect((await sim.legacy("GetnewPayment", { token: other, cardToken: token })).body).toEqual({
      result: -7,
    });
    await sim.legacy("StopRecurring", { cardToken: token });
    expect((await sim.legacy("StopRecurring", { cardToken: token })).body).toEqual({ result: -7 });
  });

  it("-7: a token whose + was sent unencoded in a form body (it arrives as a space)", async () => {
    const { token } = await sim.enroll();
    const response = await sim.fetch("/v3/GetnewPayment", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${sim.apiKey}&cardToken=${token}`,
    });
    expect(await response.json()).toEqual({ result: -7 });
  });

  it("-8: token is not a GUID", async () => {
    expect((await sim.legacy("CheckStatus", { token: "abc", orderId: "o" })).body).toEqual({ result: -8 });
  });

  it("-10: required parameters not sent, per operation", async () => {
    const cases: [string, Record<string, string>][] = [
      ["AddTransaction", { amount: "1", customerEmail: "a@b.qa" }],
      ["AddTransaction", { orderId: "   ", amount: "1", customerEmail: "a@b.qa" }],
      ["AddTransaction", { orderId: "o", customerEmail: "a@b.qa" }],
      ["AddTransaction", { orderId: "o", amount: "1" }],
      ["Refund", {}],
      ["CheckStatus", {}],
      ["ValidatePayment", {}],
      ["GetnewPayment", {}],
      ["StopRecurring", {}],
    ];
    for (const [operation, fields] of cases) {
      expect((await sim.legacy(operation, fields)).body, `${operation} ${JSON.stringify(fields)}`).toEqual({
        result: -10,
      });
    }
  });

  it("-10: malformed values", async () => {
    for (const fields of [
      { amount: "10,5" },
      { amount: "-3" },
      { amount: "1.001" },
      { lang: "fr" },
      { isRecurring: "maybe" },
      { autoSave: "sometimes" },
      { cardType: "prepaid" },
      { isVoid: true },
    ]) {
      expect(
        (await sim.legacy("AddTransaction", { ...ADD, ...fields })).body,
        JSON.stringify(fields),
      ).toEqual({
        result: -10,
      });
    }
  });

  it("-10: an autosave collection without orderId or amount; a recurring one with another amount", async () => {
    const autosave = await sim.enroll({ kind: "autosave" });
    expect((await sim.legacy("GetnewPayment", { cardToken: autosave.token, amount: "5" })).body).toEqual({
      result: -10,
    });
    expect((await sim.legacy("GetnewPayment", { cardToken: autosave.token, orderId: "r" })).body).toEqual({
      result: -10,
    });
    const recurring = await sim.enroll({ amount: "100" });
    expect((await sim.legacy("GetnewPayment", { cardToken: recurring.token, amount: "99" })).body).toEqual({
      result: -10,
    });
    expect(
      (await sim.legacy("GetnewPayment", { cardToken: recurring.token, amount: "100.00" })).body.result,
    ).toBe(1);
  });

  it("-10: refunding twice", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "twice" }));
    expect((await sim.legacy("Refund", { orderId: "twice" })).body.result).toBe(1);
    expect((await sim.legacy("Refund", { orderId: "twice" })).body).toEqual({ result: -10 });
  });

  it("-10: an unreadable body", async () => {
    const response = await sim.fetch("/v3/CheckStatus", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{oops",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ result: -10 });
  });

  it("-21: isVoid on a merchant without void support", async () => {
    await sim.configure({ void: false });
    expect((await sim.legacy("AddTransaction", { ...ADD, isVoid: true, isRecurring: true })).body).toEqual({
      result: -21,
    });
  });
});

describe("other failure facts", () => {
  it.each([
    ["isRecurring", { isRecurring: true }],
    ["autoSave", { autoSave: "yes" }],
    ["isVoid", { isVoid: true, isRecurring: true }],
  ])("a Qatar-issued debit card cannot pay a %s payment", async (_kind, fields) => {
    const paid = await sim.pay(await sim.addTransaction({ orderId: "qa", ...fields }), {
      card_number: "4847000000000009",
    });
    expect(paid.body.status).toBe("FAILURE");
    const status = await sim.legacy("CheckStatus", { orderId: "qa" });
    expect(status.body.payment).toMatchObject({
      paymentstate: "FAILURE",
      description: "A debit card issued in Qatar cannot pay a recurring payment",
    });
  });

  it("a Qatar-issued debit card pays a one-time payment", async () => {
    const paid = await sim.pay(await sim.addTransaction({ orderId: "qa1" }), {
      card_number: "4847000000000009",
    });
    expect(paid.body.status).toBe("SUCCESS");
  });
});
