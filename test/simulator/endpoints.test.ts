import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Sim } from "./harness.js";

/** "Endpoints": every operation's success reply over real HTTP, and the simulator's controls. */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function bearer(apiKey = sim.apiKey): Promise<string> {
  const response = await sim.v1("/v1/Authorization/Authorize", {}, { api_key: apiKey });
  return response.body.bearer_token!;
}

describe("POST /v1/payments/checkout", () => {
  it("answers 200 {status: SUCCESS, result: {checkout_url}} and the URL serves the card form", async () => {
    const response = await sim.v1("/v1/payments/checkout", {
      amount: "100.00",
      order_id: "o-1",
      client: { email: "client@example.com" },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: "SUCCESS",
      result: { checkout_url: expect.stringMatching(new RegExp(`^${sim.url}/checkout/[0-9a-f]{24}$`)) },
    });
    const page = await sim.fetch(new URL(response.body.result!.checkout_url!).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    for (const field of ["card_number", "expiry", "cvv", "name"]) expect(html).toContain(`name="${field}"`);
  });

  it("requires Content-Type application/json (415 otherwise)", async () => {
    const response = await sim.fetch("/v1/payments/checkout", {
      method: "POST",
      headers: { api_key: sim.apiKey, "content-type": "application/x-www-form-urlencoded" },
      body: "amount=1&order_id=o",
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      status: "error",
      error: { error_code: "415", description: expect.stringContaining("application/json") },
    });
  });
});

describe("POST /v1/payments/refund", () => {
  it("refunds a paid checkout, also under the sample's /api/v1 path", async () => {
    await sim.pay(await sim.checkout({ order_id: "a" }));
    await sim.pay(await sim.checkout({ order_id: "b" }));
    const [a, b] = (await sim.ledger()).payments;
    const first = await sim.v1("/v1/payments/refund", { transaction_id: a?.transaction_id, order_id: "a" });
    const second = await sim.v1("/api/v1/payments/refund", {
      transaction_id: b?.transaction_id,
      order_id: "b",
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((await sim.ledger()).refunds.map((refund) => refund.operation)).toEqual([
      "refund_v1",
      "refund_v1",
    ]);
  });
});

describe("Legacy endpoints", () => {
  it("accept form-encoded and JSON bodies with keys in any case", async () => {
    const form = await sim.legacy(
      "AddTransaction",
      { ORDERID: "f", Amount: "1", customeremail: "a@b.qa" },
      "form",
    );
    const json = await sim.legacy(
      "AddTransaction",
      { orderid: "j", AMOUNT: 1, CustomerEmail: "a@b.qa" },
      "json",
    );
    expect(form.body.result).toMatch(/\/checkout\//);
    expect(json.body.result).toMatch(/\/checkout\//);
    expect(form.contentType).toContain("application/json");
  });

  it("AddTransaction answers {result: <checkout url>}", async () => {
    const response = await sim.legacy("AddTransaction", {
      orderId: "o",
      amount: "5",
      customerEmail: "a@b.qa",
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ result: expect.stringMatching(new RegExp(`^${sim.url}/checkout/`)) });
  });

  it("Refund answers {result: 1, refundState, mode, refundTrnsactionId}", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "r" }));
    const response = await sim.legacy("Refund", { orderId: "r" }, "json");
    expect(response.body).toEqual({
      result: 1,
      refundState: "SUCCESS",
      mode: "Test",
      refundTrnsactionId: expect.any(String),
    });
  });

  it("Refund with transactionID refunds that payment of the order", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "two" }));
    await sim.pay(await sim.addTransaction({ orderId: "two" }));
    const [first] = (await sim.ledger()).payments;
    await sim.legacy("Refund", { orderId: "two", transactionID: first?.transaction_id });
    const refunds = (await sim.ledger()).refunds;
    expect(refunds.map((refund) => refund.transaction_id)).toEqual([first?.transaction_id]);
  });

  it("CheckStatus answers the latest payment of the orderId; transactionID narrows", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "x" }), { cvv: "000" });
    await sim.pay(await sim.addTransaction({ orderId: "x" }));
    const [failed, paid] = (await sim.ledger()).payments;
    const latest = await sim.legacy("CheckStatus", { orderId: "x" });
    expect(latest.body.payment).toMatchObject({
      transactionID: paid?.transaction_id,
      paymentstate: "SUCCESS",
    });
    const narrowed = await sim.legacy("CheckStatus", { orderId: "x", transactionID: failed?.transaction_id });
    expect(narrowed.body.payment).toMatchObject({
      transactionID: failed?.transaction_id,
      paymentstate: "FAILURE",
    });
    expect((await sim.legacy("CheckStatus", { orderId: "x", transactionID: "1" })).body).toEqual({
      result: 0,
    });
  });

  it("CheckStatus finds payments made by GetnewPayment with an orderId", async () => {
    const { token } = await sim.enroll({ kind: "autosave" });
    const charge = await sim.legacy("GetnewPayment", {
      cardToken: token,
      orderId: "renewal-1",
      amount: "42",
    });
    const status = await sim.legacy("CheckStatus", { orderId: "renewal-1" });
    expect(status.body.payment).toMatchObject({
      transactionID: charge.body.transactionId,
      amount: "42.00",
      paymentstate: "SUCCESS",
      token,
    });
  });

  it("ValidatePayment answers {result: 1, payment} like CheckStatus", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "val" }));
    const validate = await sim.legacy("ValidatePayment", { orderId: "val" });
    const check = await sim.legacy("CheckStatus", { orderId: "val" });
    expect(validate.body).toEqual(check.body);
    expect(validate.body.payment?.paymentstate).toBe("SUCCESS");
  });

  it("GetnewPayment answers {result: 1, transactionId, authcode, mode}", async () => {
    const { token } = await sim.enroll({ amount: "30" });
    const response = await sim.legacy("GetnewPayment", { cardToken: token });
    expect(response.body).toEqual({
      result: 1,
      transactionId: expect.stringMatching(/^\d{12}$/),
      authcode: expect.stringMatching(/^\d{6}$/),
      mode: "Test",
    });
    const charged = (await sim.ledger()).payments[1];
    expect(charged).toMatchObject({
      operation: "GetnewPayment",
      amount: "30.00",
      currency: "QAR",
      card_token: token,
    });
  });

  it("GetnewPayment declines answer {result: 0, transactionid, description}", async () => {
    const { token } = await sim.enroll({ card: "4000000000000341" });
    const response = await sim.legacy("GetnewPayment", { cardToken: token });
    expect(response.body).toEqual({
      result: 0,
      transactionid: expect.stringMatching(/^\d{12}$/),
      description: "Insufficient funds",
    });
  });

  it("StopRecurring answers {result: 1}", async () => {
    const { token } = await sim.enroll();
    expect((await sim.legacy("StopRecurring", { cardToken: token }, "json")).body).toEqual({ result: 1 });
  });
});

describe("v1 invoices and products (mounted handlers)", () => {
  it("POST /v1/invoices with a bearer creates an invoice (201) that the ledger lists", async () => {
    const response = await sim.post(
      "/v1/invoices",
      { amount: "50.00", description: "Consulting" },
      { authorization: `Bearer ${await bearer()}` },
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ status: "SUCCESS", invoice: { description: "Consulting" } });
    expect((await sim.ledger()).invoices).toHaveLength(1);
  });

  it("GET /v1/products with a bearer lists the merchant's products", async () => {
    const response = await sim.get<{ status: string; products: unknown[]; total: number }>("/v1/products", {
      authorization: `Bearer ${await bearer()}`,
    });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe("SUCCESS");
    expect(response.body.products.length).toBeGreaterThan(0);
    expect(response.body.total).toBeGreaterThanOrEqual(response.body.products.length);
  });
  it("POST /_sim/products adds a product for the merchant named by api_key (default merchant without it)", async () => {
    const other = await sim.createMerchant({ name: "Other" });
    const added = await sim.post(
      "/_sim/products",
      { name: "Gold plan", sku: "GOLD-1", price: "99.00" },
      { api_key: other },
    );
    expect(added.status).toBe(201);
    const list = async (apiKey: string) =>
      (
        await sim.get<{ products: { sku: string }[] }>("/v1/products?sku=GOLD-1", {
          authorization: `Bearer ${await bearer(apiKey)}`,
        })
      ).body.products.map((product) => product.sku);
    expect(await list(other)).toEqual(["GOLD-1"]);
    expect(await list(sim.apiKey)).toEqual([]);
    expect(
      (await sim.post("/_sim/products", { name: "x" }, { api_key: "0f8fad5b-d9cb-469f-a165-70867728950e" }))
        .status,
    ).toBe(404);
  });
});

describe("Simulator controls", () => {
  it("POST /_sim/merchants creates a merchant with defaults and answers its api_key", async () => {
    const created = await sim.post<{ api_key: string }>("/_sim/merchants", { name: "Shop" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ api_key: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const view = await sim.get(`/_sim/merchants/${created.body.api_key}`);
    expect(view.body).toMatchObject({
      name: "Shop",
      mode: "test",
      currencies: ["QAR"],
      card: true,
      wallet: false,
      void: true,
      success_url: null,
      failure_url: null,
      webhook_url: null,
      settlement_cutoff: "20:00",
    });
  });

  it("validates merchant settings (URLs without query parameters, ISO currencies)", async () => {
    for (const body of [
      {},
      { name: "x", mode: "prod" },
      { name: "x", currencies: ["QQQ"] },
      { name: "x", success_url: "http://m.example/ok?a=1" },
    ]) {
      expect((await sim.post("/_sim/merchants", body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("PATCH and POST …/settings change an existing merchant, including the default one", async () => {
    const patched = await sim.post(
      `/_sim/merchants/${sim.apiKey}`,
      { success_url: "http://m.example/ok" },
      {},
      "PATCH",
    );
    expect(patched.body).toMatchObject({ success_url: "http://m.example/ok", failure_url: null });
    const posted = await sim.post(`/_sim/merchants/${sim.apiKey}/settings`, {
      webhook_url: "http://m.example/hook",
    });
    expect(posted.body).toMatchObject({
      success_url: "http://m.example/ok",
      webhook_url: "http://m.example/hook",
    });
    expect((await sim.post("/_sim/merchants/00000000-0000-4000-8000-000000000000/settings", {})).status).toBe(
      404,
    );
  });

  it("POST /_sim/reset clears the state and recreates the default merchant with the same key", async () => {
    const other = await sim.createMerchant({ name: "Other" });
    await sim.configure({ success_url: "http://m.example/ok" });
    await sim.pay(await sim.addTransaction());
    const reset = await sim.post("/_sim/reset", {});
    expect(reset.body).toEqual({ reset: true, default_api_key: sim.apiKey });
    const ledger = await sim.ledger();
    expect([ledger.payments, ledger.redirects, ledger.checkouts]).toEqual([[], [], []]);
    expect((await sim.get(`/_sim/merchants/${other}`)).status).toBe(404);
    expect((await sim.get(`/_sim/merchants/${sim.apiKey}`)).body).toMatchObject({ success_url: null });
  });

  it("GET /_sim/ledger has every section", async () => {
    expect(Object.keys(await sim.ledger()).sort()).toEqual(
      ["checkouts", "invoices", "payments", "pushes", "redirects", "refunds", "tokens", "webhooks"].sort(),
    );
  });

  it("GET /_sim/ledger?only=payments,tokens answers those sections alone; unknown names are ignored", async () => {
    const { body } = await sim.get("/_sim/ledger?only=payments,tokens,nonsense");
    expect(Object.keys(body).sort()).toEqual(["payments", "tokens"]);
  });

  it("unknown paths answer 404 (v1 error body under /v1)", async () => {
    const v1 = await sim.get("/v1/nothing");
    expect(v1.status).toBe(404);
    expect(v1.body).toEqual({ status: "error", error: { error_code: "404", description: "Not Found" } });
    expect((await sim.get("/checkout/unknown")).status).toBe(404);
  });
});
