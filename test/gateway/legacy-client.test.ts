import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  GatewayDeclinedError,
  GatewayNotFoundError,
  GatewayRejectedError,
  GatewayUnavailableError,
} from "../../src/gateway/index.js";
import { failure } from "./support/failure.js";
import { API_KEY, CARD_TOKEN, FakeGateway } from "./support/fake-gateway.js";
import { PAYMENT_RECORD } from "./support/replies.js";

const V3 = "/legacy/v3";
let gateway: FakeGateway;

beforeAll(async () => {
  gateway = await FakeGateway.start();
});
afterAll(() => gateway.close());
beforeEach(() => gateway.reset());

describe("legacy AddTransaction", () => {
  it("returns the checkout URL carried in result and sends every field form-encoded", async () => {
    gateway.on(`${V3}/AddTransaction`, { json: { result: "https://pay.example/checkout?id=abc" } });
    const reply = await gateway.client().legacy.addTransaction({
      amount: { minor: 1050, currency: "QAR" },
      orderId: "order-1",
      customerEmail: "client@example.com",
      customerName: "Client One",
      customerPhone: "+97455500000",
      customerCountry: "QA",
      lang: "en",
      note: "first month",
      pushToken: "push-123",
      isRecurring: true,
      autoSave: true,
      isVoid: true,
      cardType: "debit",
    });
    expect(reply).toEqual({ checkoutUrl: "https://pay.example/checkout?id=abc" });
    const sent = gateway.last(`${V3}/AddTransaction`);
    expect(sent.method).toBe("POST");
    expect(sent.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(sent.body).toEqual({
      token: API_KEY,
      PushToken: "push-123",
      currencyCode: "QAR",
      orderId: "order-1",
      amount: "10.50",
      customerEmail: "client@example.com",
      customerName: "Client One",
      customerPhone: "+97455500000",
      customerCountry: "QA",
      lang: "en",
      note: "first month",
      isRecurring: "true",
      autoSave: "yes",
      isVoid: "true",
      cardType: "debit",
    });
  });

  it.each([
    [{ minor: 1050, currency: "QAR" }, "10.50"],
    [{ minor: 1234, currency: "KWD" }, "1.234"],
    [{ minor: 500, currency: "JPY" }, "500"],
    [{ minor: 7, currency: "BHD" }, "0.007"],
  ])("sends %o as the exact decimal %s", async (amount, decimal) => {
    gateway.on(`${V3}/AddTransaction`, { json: { result: "https://pay.example/c" } });
    await gateway.client().legacy.addTransaction({ amount, orderId: "o", customerEmail: "a@example.com" });
    expect(gateway.last(`${V3}/AddTransaction`).body).toMatchObject({
      amount: decimal,
      currencyCode: amount.currency,
    });
  });

  it("sends JSON with real booleans when configured", async () => {
    gateway.on(`${V3}/AddTransaction`, { json: { result: "https://pay.example/c" } });
    await gateway.client({ legacyEncoding: "json" }).legacy.addTransaction({
      amount: { minor: 1234, currency: "KWD" },
      orderId: "o-json",
      customerEmail: "a@example.com",
      isRecurring: true,
      autoSave: false,
    });
    const sent = gateway.last(`${V3}/AddTransaction`);
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent.text)).toEqual({
      token: API_KEY,
      currencyCode: "KWD",
      orderId: "o-json",
      amount: "1.234",
      customerEmail: "a@example.com",
      isRecurring: true,
      autoSave: "no",
    });
  });

  it("reads a failure sent with HTTP 200 and a numeric-string result", async () => {
    gateway.on(`${V3}/AddTransaction`, { json: { result: "-3" } });
    const error = await failure(
      gateway.client().legacy.addTransaction({
        amount: { minor: 100, currency: "USD" },
        orderId: "o",
        customerEmail: "a@example.com",
      }),
    );
    expect(error).toBeInstanceOf(GatewayRejectedError);
    expect(error).toMatchObject({ code: -3, httpStatus: 200, retryable: false, outcomeUnknown: false });
    expect(error.description).toMatch(/currency/);
  });

  it.each([
    ["isVoid without recurrence or autosave", { isVoid: true }],
    ["an amount with more decimals than the currency has", { amount: { minor: 10.5, currency: "QAR" } }],
    ["an unknown currency", { amount: { minor: 100, currency: "XXX" } }],
    ["a zero amount", { amount: { minor: 0, currency: "QAR" } }],
    ["an invalid e-mail", { customerEmail: "not-an-email" }],
    ["an empty orderId", { orderId: "  " }],
  ])("refuses %s without calling the gateway", async (_case, override) => {
    const error = await failure(
      gateway.client().legacy.addTransaction({
        amount: { minor: 100, currency: "QAR" },
        orderId: "o",
        customerEmail: "a@example.com",
        ...override,
      }),
    );
    expect(error).toBeInstanceOf(GatewayRejectedError);
    expect(error).toMatchObject({ code: "invalid_request", outcomeUnknown: false });
    expect(gateway.requests).toHaveLength(0);
  });
});

describe("legacy Refund", () => {
  it("reads refundTrnsactionId (spelled so) and normalises mode", async () => {
    gateway.on(`${V3}/Refund`, {
      json: { result: 1, refundState: "SUCCESS", mode: "Live", refundTrnsactionId: "RF-1" },
    });
    const refund = await gateway.client().legacy.refund({ orderId: "order-1", transactionId: "TXN-1" });
    expect(refund).toEqual({ refundState: "SUCCESS", mode: "live", refundTransactionId: "RF-1" });
    expect(gateway.last(`${V3}/Refund`).body).toEqual({
      token: API_KEY,
      orderId: "order-1",
      transactionID: "TXN-1",
    });
  });

  it("accepts the correct spelling, other key casings and numeric ids", async () => {
    gateway.on(`${V3}/Refund`, {
      json: { Result: "1", RefundState: "Processing", MODE: "test", RefundTransactionID: 998 },
    });
    const refund = await gateway.client().legacy.refund({ orderId: "order-2" });
    expect(refund).toEqual({ refundState: "Processing", mode: "test", refundTransactionId: "998" });
    expect(gateway.last(`${V3}/Refund`).body).toEqual({ token: API_KEY, orderId: "order-2" });
  });

  it("maps -2 to not found", async () => {
    gateway.on(`${V3}/Refund`, { json: { result: -2 } });
    const error = await failure(gateway.client().legacy.refund({ orderId: "missing" }));
    expect(error).toBeInstanceOf(GatewayNotFoundError);
    expect(error).toMatchObject({ code: -2, operation: "legacy.refund", outcomeUnknown: false });
  });

  it("treats a success without the refund fields as an unreadable reply with unknown outcome", async () => {
    gateway.on(`${V3}/Refund`, { json: { result: 1 } });
    const error = await failure(gateway.client().legacy.refund({ orderId: "o" }));
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ code: "bad_reply", outcomeUnknown: true });
  });
});

describe("legacy CheckStatus and ValidatePayment", () => {
  it("parses the payment record with exact amounts and the card token", async () => {
    gateway.on(`${V3}/CheckStatus`, { json: { result: 1, payment: PAYMENT_RECORD } });
    const lookup = await gateway
      .client()
      .legacy.checkStatus({ orderId: "order-1", transactionId: "TXN-1001" });
    expect(lookup).toStrictEqual({
      found: true,
      payment: {
        transactionId: "TXN-1001",
        amount: { minor: 1050, currency: "QAR" },
        paymentDate: "2024-05-01 10:15:00",
        state: "SUCCESS",
        authCode: "AUTH42",
        mode: "live",
        cardToken: CARD_TOKEN,
        description: "order 1",
        refundState: false,
        customerEmail: "client@example.com",
        customerName: "Client One",
        customerPhone: "+97455500000",
        exchangeRate: "3.6400",
        paidAmount: { minor: 1050, currency: "QAR" },
        paidAmountText: "10.50",
      },
    });
    expect(gateway.last(`${V3}/CheckStatus`).body).toEqual({
      token: API_KEY,
      orderId: "order-1",
      transactionID: "TXN-1001",
    });
  });

  it("returns found: false for result 0", async () => {
    gateway.on(`${V3}/CheckStatus`, { json: { result: 0 } });
    await expect(gateway.client().legacy.checkStatus({ orderId: "nope" })).resolves.toEqual({ found: false });
  });

  it("reads keys in other casings, numeric amounts and string booleans", async () => {
    gateway.on(`${V3}/CheckStatus`, {
      json: {
        RESULT: "1",
        Payment: {
          TransactionId: 555,
          Amount: 1.234,
          CurrencyCode: "kwd",
          PaymentDate: "2024-05-02",
          PaymentState: "pending",
          Mode: "TEST",
          Token: null,
          RefundState: "True",
          RefundStatus: "Processing",
          RefundTransactionID: "RF-9",
          exchangerate: 1,
        },
      },
    });
    const lookup = await gateway.client().legacy.checkStatus({ orderId: "o" });
    expect(lookup).toEqual({
      found: true,
      payment: {
        transactionId: "555",
        amount: { minor: 1234, currency: "KWD" },
        paymentDate: "2024-05-02",
        state: "PENDING",
        mode: "test",
        cardToken: null,
        refundState: true,
        refundStatus: "Processing",
        refundTransactionId: "RF-9",
        exchangeRate: "1",
      },
    });
  });

  it("reports an amount that is not exact in its currency as an unreadable reply", async () => {
    gateway.on(`${V3}/CheckStatus`, {
      json: { result: 1, payment: { ...PAYMENT_RECORD, amount: "10.505" } },
    });
    const error = await failure(gateway.client({ readRetries: 0 }).legacy.checkStatus({ orderId: "o" }));
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ code: "bad_reply", outcomeUnknown: false });
    expect(error.description).toMatch(/amount/);
  });

  it("validates a payment with the same reply shape", async () => {
    gateway.on(`${V3}/ValidatePayment`, {
      json: {
        result: 1,
        payment: { ...PAYMENT_RECORD, paymentstate: "FAILURE", amount: 500, currencyCode: "JPY" },
      },
    });
    const lookup = await gateway.client().legacy.validatePayment({ orderId: "order-1" });
    expect(lookup).toMatchObject({
      found: true,
      payment: { state: "FAILURE", amount: { minor: 500, currency: "JPY" }, paidAmountText: "10.50" },
    });
    // 10.50 cannot be yen, so PaidAmount (whose currency the gateway does not state) is not given as Money.
    expect(lookup.found && lookup.payment.paidAmount).toBeUndefined();
    expect(gateway.last(`${V3}/ValidatePayment`).body).toEqual({ token: API_KEY, orderId: "order-1" });
  });

  it("returns found: false from ValidatePayment result 0", async () => {
    gateway.on(`${V3}/ValidatePayment`, { json: { result: 0 } });
    await expect(gateway.client().legacy.validatePayment({ orderId: "x" })).resolves.toEqual({
      found: false,
    });
  });
});

describe("legacy GetnewPayment", () => {
  it.each([
    ["transactionId", { transactionId: "T-1" }],
    ["transactionid", { transactionid: "T-1" }],
    ["transactionID", { transactionID: "T-1" }],
    ["transId", { transId: "T-1" }],
  ])("charges a recurring token and reads the id spelled %s", async (_spelling, id) => {
    gateway.on(`${V3}/GetnewPayment`, { json: { result: 1, ...id, authcode: "A-7", mode: "Test" } });
    const charge = await gateway.client().legacy.getNewPayment({ cardToken: CARD_TOKEN });
    expect(charge).toEqual({ transactionId: "T-1", authCode: "A-7", mode: "test" });
    const sent = gateway.last(`${V3}/GetnewPayment`);
    expect(sent.body).toEqual({ token: API_KEY, cardToken: CARD_TOKEN });
    expect(sent.text).toContain("Zx%2B9%2Fab%3Dc%7Cd%2Be%2Ff%3D%3D");
  });

  it("charges an autosave token with orderId and an exact amount", async () => {
    gateway.on(`${V3}/GetnewPayment`, {
      json: { result: "1", TransactionId: "T-2", AuthCode: "A-8", Mode: "Live" },
    });
    const charge = await gateway.client().legacy.getNewPayment({
      cardToken: CARD_TOKEN,
      orderId: "renewal-7",
      amount: { minor: 1234, currency: "KWD" },
    });
    expect(charge).toEqual({ transactionId: "T-2", authCode: "A-8", mode: "live" });
    expect(gateway.last(`${V3}/GetnewPayment`).body).toEqual({
      token: API_KEY,
      cardToken: CARD_TOKEN,
      orderId: "renewal-7",
      amount: "1.234",
    });
  });

  it.each([
    ["an error body", { status: "error", error: { error_code: "429", description: "Too Many Requests" } }],
    ["a negative result", { result: -10 }],
    ["no body at all", ""],
  ])("reads a 429 with %s as refused before processing: nothing moved", async (_name, body) => {
    gateway.on(`${V3}/GetnewPayment`, { status: 429, json: body });
    const error = await failure(
      gateway.client().legacy.getNewPayment({ cardToken: CARD_TOKEN, orderId: "o-1" }),
    );
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ httpStatus: 429, outcomeUnknown: false, retryable: true });
  });

  it("reads a 429 whose body says paid as an unknown outcome, for CheckStatus to settle", async () => {
    gateway.on(`${V3}/GetnewPayment`, { status: 429, json: { result: 1, transactionId: "T-9" } });
    const error = await failure(
      gateway.client().legacy.getNewPayment({ cardToken: CARD_TOKEN, orderId: "o-2" }),
    );
    expect(error).toMatchObject({ httpStatus: 429, outcomeUnknown: true });
  });

  it("charges a recurring token under our orderId without an amount", async () => {
    gateway.on(`${V3}/GetnewPayment`, {
      json: { result: 1, transactionId: "T-4", authcode: "A", mode: "Test" },
    });
    await gateway.client().legacy.getNewPayment({ cardToken: CARD_TOKEN, orderId: "chg_1_1" });
    expect(gateway.last(`${V3}/GetnewPayment`).body).toEqual({
      token: API_KEY,
      cardToken: CARD_TOKEN,
      orderId: "chg_1_1",
    });
  });

  it("sends the card token intact as JSON too", async () => {
    gateway.on(`${V3}/GetnewPayment`, {
      json: { result: 1, transactionId: "T-3", authcode: "A", mode: "live" },
    });
    await gateway.client({ legacyEncoding: "json" }).legacy.getNewPayment({ cardToken: CARD_TOKEN });
    expect(gateway.last(`${V3}/GetnewPayment`).body).toEqual({ token: API_KEY, cardToken: CARD_TOKEN });
  });

  it("throws GatewayDeclinedError for result 0 with its description and transaction id", async () => {
    gateway.on(`${V3}/GetnewPayment`, {
      json: { result: 0, transactionid: "T-DECL", description: "Insufficient funds" },
    });
    const error = await failure(gateway.client().legacy.getNewPayment({ cardToken: CARD_TOKEN }));
    expect(error).toBeInstanceOf(GatewayDeclinedError);
    expect(error).toMatchObject({
      code: 0,
      description: "Insufficient funds",
      transactionId: "T-DECL",
      retryable: false,
      outcomeUnknown: false,
      operation: "legacy.getNewPayment",
    });
  });

  it("refuses an amount without an orderId", async () => {
    const error = await failure(
      gateway
        .client()
        .legacy.getNewPayment({ cardToken: CARD_TOKEN, amount: { minor: 100, currency: "QAR" } }),
    );
    expect(error).toMatchObject({ code: "invalid_request" });
    expect(gateway.requests).toHaveLength(0);
  });

  it("keeps the API key and the card token out of raw when the gateway echoes them", async () => {
    gateway.on(`${V3}/GetnewPayment`, (request) => ({
      json: {
        result: -7,
        token: request.body.token,
        cardToken: request.body.cardToken,
        description: "no token",
      },
    }));
    const error = await failure(gateway.client().legacy.getNewPayment({ cardToken: CARD_TOKEN }));
    expect(error).toBeInstanceOf(GatewayNotFoundError);
    const exposed = JSON.stringify({
      raw: error.raw,
      message: error.message,
      description: error.description,
    });
    expect(exposed).not.toContain(API_KEY);
    expect(exposed).not.toContain(CARD_TOKEN);
    expect(error.raw).toMatchObject({ result: -7, description: "no token" });
  });
});

describe("legacy StopRecurring", () => {
  it("deactivates a token", async () => {
    gateway.on(`${V3}/StopRecurring`, { json: { result: 1 } });
    await expect(gateway.client().legacy.stopRecurring({ cardToken: CARD_TOKEN })).resolves.toBeUndefined();
    expect(gateway.last(`${V3}/StopRecurring`).body).toEqual({ token: API_KEY, cardToken: CARD_TOKEN });
  });

  it("maps -7 to not found", async () => {
    gateway.on(`${V3}/StopRecurring`, { json: { result: -7 } });
    const error = await failure(gateway.client().legacy.stopRecurring({ cardToken: CARD_TOKEN }));
    expect(error).toBeInstanceOf(GatewayNotFoundError);
    expect(error.code).toBe(-7);
  });
});
