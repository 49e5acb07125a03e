import { DateTime } from "luxon";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  GatewayAuthenticationError,
  GatewayNotFoundError,
  GatewayRejectedError,
  GatewayUnavailableError,
} from "../../src/gateway/index.js";
import { failure } from "./support/failure.js";
import { API_KEY, FakeGateway } from "./support/fake-gateway.js";

let gateway: FakeGateway;

beforeAll(async () => {
  gateway = await FakeGateway.start();
});
afterAll(() => gateway.close());
beforeEach(() => gateway.reset());

const v1Error = (status: number, description: string) => ({
  status,
  json: { status: "error", error: { error_code: String(status), description } },
});

describe("v1 checkout", () => {
  it("sends the api_key header and a JSON body with an exact decimal amount", async () => {
    gateway.on("/v1/payments/checkout", {
      json: { status: "SUCCESS", result: { checkout_url: "https://pay.example/c/1" } },
    });
    const result = await gateway.client().v1.checkout({
      amount: { minor: 1050, currency: "QAR" },
      orderId: "order-1",
      client: { name: "Client One", phone: "+97455500000" },
      language: "ar",
      successUrl: "https://shop.example/ok",
      failureUrl: "https://shop.example/ko",
      pushToken: "push-1",
      saveToken: true,
      note: "May",
    });
    expect(result).toEqual({ checkoutUrl: "https://pay.example/c/1" });
    const sent = gateway.last("/v1/payments/checkout");
    expect(sent.headers.api_key).toBe(API_KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.body).toEqual({
      amount: "10.50",
      currency: "QAR",
      order_id: "order-1",
      client: { name: "Client One", phone: "+97455500000" },
      language: "ar",
      success_url: "https://shop.example/ok",
      failure_url: "https://shop.example/ko",
      push_token: "push-1",
      save_token: true,
      note: "May",
    });
  });

  it.each([
    [{ minor: 1234, currency: "KWD" }, "1.234"],
    [{ minor: 500, currency: "JPY" }, "500"],
  ])("sends %o as %s", async (amount, decimal) => {
    gateway.on("/v1/payments/checkout", {
      json: { status: "SUCCESS", result: { checkout_url: "https://p.example/" } },
    });
    await gateway.client().v1.checkout({ amount, orderId: "o", client: { email: "a@example.com" } });
    expect(gateway.last("/v1/payments/checkout").body).toMatchObject({
      amount: decimal,
      currency: amount.currency,
    });
  });

  it("refuses a client without phone or e-mail before calling", async () => {
    const error = await failure(
      gateway
        .client()
        .v1.checkout({ amount: { minor: 100, currency: "QAR" }, orderId: "o", client: { name: "X" } }),
    );
    expect(error).toBeInstanceOf(GatewayRejectedError);
    expect(error.code).toBe("invalid_request");
    expect(gateway.requests).toHaveLength(0);
  });

  it.each([
    [400, GatewayRejectedError, false, false],
    [401, GatewayAuthenticationError, false, false],
    [404, GatewayNotFoundError, false, false],
    [500, GatewayUnavailableError, true, true],
  ])("maps an HTTP %i error body to %o", async (status, errorClass, retryable, outcomeUnknown) => {
    gateway.on("/v1/payments/checkout", v1Error(status, `problem ${status}`));
    const error = await failure(
      gateway.client().v1.checkout({
        amount: { minor: 100, currency: "QAR" },
        orderId: "o",
        client: { email: "a@example.com" },
      }),
    );
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({
      operation: "v1.checkout",
      code: status,
      httpStatus: status,
      description: `problem ${status}`,
      retryable,
      outcomeUnknown,
    });
    // Checkout moves money: never repeated by the client, whatever the failure.
    expect(gateway.hits("/v1/payments/checkout")).toHaveLength(1);
  });
});

describe("v1 refund", () => {
  it("refunds with api_key and reads the result", async () => {
    gateway.on("/v1/payments/refund", {
      json: {
        status: "SUCCESS",
        result: { refund_status: "under_processing", mode: "live", refund_transaction_id: "RF-1" },
      },
    });
    const refund = await gateway.client().v1.refund({ transactionId: "TXN-1", orderId: "order-1" });
    expect(refund).toEqual({ refundStatus: "under_processing", mode: "live", refundTransactionId: "RF-1" });
    const sent = gateway.last("/v1/payments/refund");
    expect(sent.headers.api_key).toBe(API_KEY);
    expect(sent.body).toEqual({ transaction_id: "TXN-1", order_id: "order-1" });
  });

  it("maps a 400 with error_code and description", async () => {
    gateway.on("/v1/payments/refund", v1Error(400, "transaction already refunded"));
    const error = await failure(gateway.client().v1.refund({ transactionId: "TXN-1", orderId: "o" }));
    expect(error).toBeInstanceOf(GatewayRejectedError);
    expect(error).toMatchObject({ code: 400, description: "transaction already refunded" });
  });
});

describe("v1 products", () => {
  const PRODUCT = {
    id: 12,
    name: "Seat",
    sku: "SEAT-1",
    price: "25.50",
    image: "https://img.example/seat.png",
    description: "A seat",
    creation_date: "2024-04-01T00:00:00+03:00",
    currency: "QAR",
    category: ["seats", "licences"],
    qr_code: "https://qr.example/12",
    link: "https://shop.example/p/12",
    status: "Active",
    language: "en",
    setting: { is_public: true, is_limited: false, is_casheir: true, max_count: "10.0", max_order: 3 },
  };

  it("sends every filter as the gateway names it and reads the page", async () => {
    gateway.on("/v1/products", {
      json: { status: "SUCCESS", products: [PRODUCT], total: 41, page_size: 20, page: 2 },
    });
    const page = await gateway.client({ accessToken: "static-token" }).v1.listProducts({
      q: "seat",
      status: "online",
      page: 2,
      pageSize: 20,
      from: DateTime.fromISO("2024-04-01T22:00:00", { zone: "Asia/Qatar" }),
      to: "2024-05-31",
      id: 12,
      sku: "SEAT-1",
      isCashier: false,
      isPublic: true,
      category: "seats",
      min: 1,
      max: 100,
    });
    const sent = gateway.last("/v1/products");
    expect(sent.method).toBe("GET");
    expect(sent.headers.authorization).toBe("Bearer static-token");
    expect(Object.fromEntries(sent.query)).toEqual({
      q: "seat",
      status: "online",
      page: "2",
      page_size: "20",
      from: "2024-04-01",
      to: "2024-05-31",
      Id: "12",
      sku: "SEAT-1",
      is_cashier: "false",
      is_public: "true",
      category: "seats",
      min: "1",
      max: "100",
    });
    expect(page).toStrictEqual({
      total: 41,
      page: 2,
      pageSize: 20,
      products: [
        {
          id: 12,
          name: "Seat",
          sku: "SEAT-1",
          price: { minor: 2550, currency: "QAR" },
          image: "https://img.example/seat.png",
          description: "A seat",
          creationDate: "2024-04-01T00:00:00+03:00",
          currency: "QAR",
          category: ["seats", "licences"],
          qrCode: "https://qr.example/12",
          link: "https://shop.example/p/12",
          status: "Active",
          language: "en",
          setting: { isPublic: true, isLimited: false, isCashier: true, maxCount: 10, maxOrder: 3 },
        },
      ],
    });
  });

  it("sends no query when no filter is given", async () => {
    gateway.on("/v1/products", {
      json: { status: "SUCCESS", products: [], total: 0, page_size: 10, page: 1 },
    });
    const page = await gateway.client({ accessToken: "t" }).v1.listProducts();
    expect(page).toEqual({ products: [], total: 0, page: 1, pageSize: 10 });
    expect([...gateway.last("/v1/products").query]).toEqual([]);
  });

  it.each([{ page: 0 }, { page: 1001 }, { pageSize: 101 }, { from: "01/04/2024" }])(
    "refuses %o before calling",
    async (filter) => {
      const error = await failure(gateway.client({ accessToken: "t" }).v1.listProducts(filter));
      expect(error).toMatchObject({ code: "invalid_request" });
      expect(gateway.requests).toHaveLength(0);
    },
  );
});
