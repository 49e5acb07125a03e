import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryOf, Sim, waitFor } from "./harness.js";
import { MerchantServer } from "./merchant-server.js";

/** "Events": redirects, webhooks and push notifications, with exactly the Events table's parameters. */
let sim: Sim;
let merchant: MerchantServer;
beforeAll(async () => {
  sim = await Sim.start();
  merchant = await MerchantServer.start();
});
afterAll(async () => {
  await sim.close();
  await merchant.close();
});
beforeEach(async () => {
  await sim.reset();
  merchant.release();
  merchant.clear();
});

const accountUrls = () =>
  sim.configure({
    success_url: `${merchant.url}/ok`,
    failure_url: `${merchant.url}/fail`,
    webhook_url: `${merchant.url}/hook`,
  });

describe("v1 redirects", () => {
  it("success: transaction_id, order_id, mode, response_code=000, description", async () => {
    const paid = await sim.pay(await sim.checkout({ order_id: "o1", success_url: `${merchant.url}/ok` }));
    const [payment] = (await sim.ledger()).payments;
    expect(paid.body.status).toBe("SUCCESS");
    expect(paid.body.redirect_url?.startsWith(`${merchant.url}/ok?`)).toBe(true);
    expect(queryOf(paid.body.redirect_url)).toEqual([
      ["transaction_id", payment!.transaction_id],
      ["order_id", "o1"],
      ["mode", "test"],
      ["response_code", "000"],
      ["description", "Approved"],
    ]);
  });

  it("success with save_token adds card_token", async () => {
    const paid = await sim.pay(
      await sim.checkout({ order_id: "o2", success_url: `${merchant.url}/ok`, save_token: true }),
    );
    const [token] = (await sim.ledger()).tokens;
    const query = queryOf(paid.body.redirect_url);
    expect(query.map(([key]) => key)).toEqual([
      "transaction_id",
      "order_id",
      "mode",
      "response_code",
      "description",
      "card_token",
    ]);
    expect(query[5]).toEqual(["card_token", token?.card_token]);
    expect(token?.kind).toBe("autosave");
  });

  it("failure: transaction_id, order_id, mode, response_code (not 000), description", async () => {
    const paid = await sim.pay(
      await sim.checkout({
        order_id: "o3",
        success_url: `${merchant.url}/ok`,
        failure_url: `${merchant.url}/fail`,
      }),
      { cvv: "321" },
    );
    const [payment] = (await sim.ledger()).payments;
    expect(paid.body.status).toBe("FAILURE");
    expect(paid.body.redirect_url?.startsWith(`${merchant.url}/fail?`)).toBe(true);
    expect(queryOf(paid.body.redirect_url)).toEqual([
      ["transaction_id", payment!.transaction_id],
      ["order_id", "o3"],
      ["mode", "test"],
      ["response_code", "082"],
      ["description", "Invalid CVV"],
    ]);
  });

  it("without success_url the client stays on the default screen, even if the account has URLs", async () => {
    await accountUrls();
    const url = await sim.checkout({ order_id: "o4" });
    const paid = await sim.pay(url);
    expect(paid.body).toEqual({ status: "SUCCESS", redirect_url: null });
    const page = await sim.get(new URL(url).pathname);
    expect(page.text).toContain('data-status="SUCCESS"');
    expect(page.text).not.toContain("refresh");
    expect(page.text).not.toContain("location.replace");
  });
});

describe("legacy redirects (account-configured URLs)", () => {
  beforeEach(accountUrls);

  it("one-time success: transid, orderId, mode", async () => {
    const paid = await sim.pay(await sim.addTransaction({ orderId: "L1" }));
    const [payment] = (await sim.ledger()).payments;
    expect(paid.body.redirect_url?.startsWith(`${merchant.url}/ok?`)).toBe(true);
    expect(queryOf(paid.body.redirect_url)).toEqual([
      ["transid", payment!.transaction_id],
      ["orderId", "L1"],
      ["mode", "Test"],
    ]);
  });

  it.each([
    ["recurring", { isRecurring: true }],
    ["autosave", { autoSave: "yes" }],
  ])("%s success adds token = the card token", async (_kind, fields) => {
    const paid = await sim.pay(await sim.addTransaction({ orderId: "L2", ...fields }));
    const [payment] = (await sim.ledger()).payments;
    expect(queryOf(paid.body.redirect_url)).toEqual([
      ["transid", payment!.transaction_id],
      ["orderId", "L2"],
      ["mode", "Test"],
      ["token", payment!.card_token!],
    ]);
  });

  it("isVoid success: transid, orderId, mode, token, refunded=yes, RTransactionID", async () => {
    const paid = await sim.pay(await sim.addTransaction({ orderId: "L3", isVoid: true, isRecurring: true }));
    const ledger = await sim.ledger();
    const payment = ledger.payments[0]!;
    expect(queryOf(paid.body.redirect_url)).toEqual([
      ["transid", payment.transaction_id],
      ["orderId", "L3"],
      ["mode", "Test"],
      ["token", payment.card_token!],
      ["refunded", "yes"],
      ["RTransactionID", ledger.refunds[0]!.refund_transaction_id],
    ]);
  });

  it("isVoid whose return fails: refunded=no, RefundDescription", async () => {
    const url = await sim.addTransaction({ orderId: "L4", isVoid: true, autoSave: "yes" });
    const paid = await sim.pay(url, { card_number: "4000000000000259" });
    const payment = (await sim.ledger()).payments[0]!;
    expect(queryOf(paid.body.redirect_url)).toEqual([
      ["transid", payment.transaction_id],
      ["orderId", "L4"],
      ["mode", "Test"],
      ["token", payment.card_token!],
      ["refunded", "no"],
      ["RefundDescription", "Void declined by the issuer"],
    ]);
  });

  it("one-time failure: transId, orderId, Failerdescription, Failuredescription", async () => {
    const paid = await sim.pay(await sim.addTransaction({ orderId: "L5" }), { cvv: "1" });
    const payment = (await sim.ledger()).payments[0]!;
    expect(paid.body.redirect_url?.startsWith(`${merchant.url}/fail?`)).toBe(true);
    expect(queryOf(paid.body.redirect_url)).toEqual([
      ["transId", payment.transaction_id],
      ["orderId", "L5"],
      ["Failerdescription", "Invalid CVV"],
      ["Failuredescription", "Invalid CVV"],
    ]);
  });

  it.each([
    ["recurring", { isRecurring: true }],
    ["autosave", { autoSave: "yes" }],
    ["isVoid", { isVoid: true, autoSave: "yes" }],
  ])("%s failure adds token (empty, none was issued) and mode", async (_kind, fields) => {
    const paid = await sim.pay(await sim.addTransaction({ orderId: "L6", ...fields }), {
      card_number: "4111111111111112",
    });
    const payment = (await sim.ledger()).payments[0]!;
    expect(queryOf(paid.body.redirect_url)).toEqual([
      ["transId", payment.transaction_id],
      ["orderId", "L6"],
      ["token", ""],
      ["mode", "Test"],
      ["Failerdescription", "Invalid card number"],
      ["Failuredescription", "Invalid card number"],
    ]);
  });
});

describe("result page", () => {
  it("sends the client on after 2 seconds by script, with a meta refresh fallback", async () => {
    const response = await sim.fetch(
      new URL(await sim.checkout({ success_url: `${merchant.url}/ok` })).pathname,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          card_number: "4111111111111111",
          expiry: "12/30",
          cvv: "123",
          name: "A",
        }),
      },
    );
    const html = await response.text();
    const redirect = (await sim.ledger()).redirects[0]!.url!;
    expect(html).toContain(`<meta http-equiv="refresh" content="2;url=${redirect.replace(/&/g, "&amp;")}">`);
    expect(html).toContain(`location.replace(${JSON.stringify(redirect)})},2000)`);
  });

  it("a paid checkout opened again shows success and sends the client on again", async () => {
    await accountUrls();
    const url = await sim.addTransaction({ orderId: "again" });
    const paid = await sim.pay(url);
    const page = await sim.get(new URL(url).pathname);
    expect(page.text).toContain('data-status="SUCCESS"');
    expect(page.text).toContain("location.replace(");
    const redirects = (await sim.ledger()).redirects;
    expect(redirects.map((redirect) => [redirect.reason, redirect.url])).toEqual([
      ["payment", paid.body.redirect_url],
      ["reopen", paid.body.redirect_url],
    ]);
  });
});

describe("webhooks (GET with a query string)", () => {
  it("v1: transaction_id, order_id, mode, response_code, description", async () => {
    await accountUrls();
    await sim.pay(await sim.checkout({ order_id: "W1" }));
    const request = await merchant.waitForRequest("/hook");
    const payment = (await sim.ledger()).payments[0]!;
    expect(request.method).toBe("GET");
    expect(request.query).toEqual([
      ["transaction_id", payment.transaction_id],
      ["order_id", "W1"],
      ["mode", "test"],
      ["response_code", "000"],
      ["description", "Approved"],
    ]);
    const webhook = await waitFor(async () =>
      (await sim.ledger()).webhooks.find((entry) => entry.state === "delivered"),
    );
    expect(webhook).toMatchObject({ interface: "v1", method: "GET", response_status: 200, error: null });
    expect(webhook.params).toEqual(Object.fromEntries(request.query));
  });

  it("legacy success: transid, orderId, status=SUCCESS", async () => {
    await accountUrls();
    await sim.pay(await sim.addTransaction({ orderId: "W2" }));
    const request = await merchant.waitForRequest("/hook");
    const payment = (await sim.ledger()).payments[0]!;
    expect(request.query).toEqual([
      ["transid", payment.transaction_id],
      ["orderId", "W2"],
      ["status", "SUCCESS"],
    ]);
  });

  it("legacy failure: transid, orderId, status=FAILURE, Failuredescription", async () => {
    await accountUrls();
    await sim.pay(await sim.addTransaction({ orderId: "W3" }), { card_number: "4000000000009995" });
    const request = await merchant.waitForRequest("/hook");
    const payment = (await sim.ledger()).payments[0]!;
    expect(request.query).toEqual([
      ["transid", payment.transaction_id],
      ["orderId", "W3"],
      ["status", "FAILURE"],
      ["Failuredescription", "Insufficient funds"],
    ]);
  });

  it("/_sim/pay answers before the webhook delivery finishes", async () => {
    await accountUrls();
    merchant.hold();
    const paid = await sim.pay(await sim.addTransaction({ orderId: "W4" }));
    expect(paid.body.status).toBe("SUCCESS");
    await merchant.waitForRequest("/hook");
    expect((await sim.ledger()).webhooks[0]?.state).toBe("pending");
    merchant.release();
    await waitFor(async () => ((await sim.ledger()).webhooks[0]?.state === "delivered" ? true : undefined));
  });

  it("records a delivery that fails, with its error", async () => {
    await sim.configure({ webhook_url: "http://127.0.0.1:1/hook" });
    await sim.pay(await sim.addTransaction({ orderId: "W5" }));
    const webhook = await waitFor(async () =>
      (await sim.ledger()).webhooks.find((entry) => entry.state === "failed"),
    );
    expect(webhook.url).toMatch(/^http:\/\/127\.0\.0\.1:1\/hook\?transid=/);
    expect(webhook.error).toMatch(/ECONNREFUSED/);
  });

  it("are not called without a webhook URL", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "W6" }));
    expect((await sim.ledger()).webhooks).toEqual([]);
  });
});

describe("push notifications", () => {
  it("are recorded (not sent) when PushToken / push_token was given", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "P1", PushToken: "device-1" }));
    await sim.pay(await sim.checkout({ order_id: "P2", push_token: "device-2" }), { cvv: "000" });
    await sim.pay(await sim.addTransaction({ orderId: "P3" }));
    const pushes = (await sim.ledger()).pushes;
    expect(pushes.map((push) => [push.push_token, push.order_id, push.status])).toEqual([
      ["device-1", "P1", "SUCCESS"],
      ["device-2", "P2", "FAILURE"],
    ]);
  });
});
