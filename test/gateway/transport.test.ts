import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGatewayClient, GatewayUnavailableError, isRetrySafe } from "../../src/gateway/index.js";
import { createLogger } from "../../src/logger/index.js";
import { failure } from "./support/failure.js";
import { API_KEY, CARD_TOKEN, FakeGateway } from "./support/fake-gateway.js";
import { PAYMENT_RECORD } from "./support/replies.js";

const V3 = "/legacy/v3";
const FOUND = { json: { result: 1, payment: PAYMENT_RECORD } };
/** Long enough for a request to reach the local server even on a loaded machine, short for a test. */
const TIMEOUT_MS = 400;
let gateway: FakeGateway;

beforeAll(async () => {
  gateway = await FakeGateway.start();
});
afterAll(() => gateway.close());
beforeEach(() => gateway.reset());

describe("timeouts", () => {
  it("leaves GetnewPayment's outcome unknown and does not repeat it", async () => {
    gateway.on(`${V3}/GetnewPayment`, "hang");
    const error = await failure(
      gateway.client({ timeoutMs: TIMEOUT_MS }).legacy.getNewPayment({ cardToken: CARD_TOKEN }),
    );
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ code: "timeout", retryable: true, outcomeUnknown: true });
    expect(isRetrySafe(error)).toBe(false);
    expect(gateway.hits(`${V3}/GetnewPayment`)).toHaveLength(1);
  });

  it("keeps CheckStatus's outcome known and retries it twice", async () => {
    gateway.on(`${V3}/CheckStatus`, "hang");
    const error = await failure(
      gateway.client({ timeoutMs: TIMEOUT_MS }).legacy.checkStatus({ orderId: "o" }),
    );
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ code: "timeout", retryable: true, outcomeUnknown: false });
    expect(isRetrySafe(error)).toBe(true);
    expect(gateway.hits(`${V3}/CheckStatus`)).toHaveLength(3);
  });

  it("recovers when a retried read is answered", async () => {
    gateway.sequence(`${V3}/CheckStatus`, ["hang", FOUND]);
    const lookup = await gateway.client({ timeoutMs: TIMEOUT_MS }).legacy.checkStatus({ orderId: "o" });
    expect(lookup.found).toBe(true);
    expect(gateway.hits(`${V3}/CheckStatus`)).toHaveLength(2);
  });
});

describe("server errors and unreadable replies", () => {
  it("retries a read through 5xx replies", async () => {
    gateway.sequence(`${V3}/ValidatePayment`, [
      { status: 502, text: "bad gateway" },
      { status: 500, json: {} },
      FOUND,
    ]);
    const lookup = await gateway.client().legacy.validatePayment({ orderId: "o" });
    expect(lookup).toMatchObject({ found: true, payment: { transactionId: "TXN-1001" } });
    expect(gateway.hits(`${V3}/ValidatePayment`)).toHaveLength(3);
  });

  it("honours readRetries: 0", async () => {
    gateway.on(`${V3}/CheckStatus`, { status: 500, text: "oops" });
    const error = await failure(gateway.client({ readRetries: 0 }).legacy.checkStatus({ orderId: "o" }));
    expect(error).toMatchObject({ code: 500, httpStatus: 500, outcomeUnknown: false });
    expect(gateway.hits(`${V3}/CheckStatus`)).toHaveLength(1);
  });

  it.each([
    ["a 500 page", { status: 500, text: "<html>Internal error</html>" }, 500],
    ["malformed JSON", { status: 200, text: '{"result": 1, ' }, "bad_reply"],
    ["JSON without a result", { status: 200, json: { ok: true } }, "bad_reply"],
    ["an empty body", { status: 200, text: "" }, "bad_reply"],
  ] as const)(
    "reports %s on a money-moving call as unavailable with unknown outcome, once",
    async (_case, reply, code) => {
      gateway.on(`${V3}/AddTransaction`, reply);
      const error = await failure(
        gateway.client().legacy.addTransaction({
          amount: { minor: 100, currency: "QAR" },
          orderId: "o",
          customerEmail: "a@example.com",
        }),
      );
      expect(error).toBeInstanceOf(GatewayUnavailableError);
      expect(error).toMatchObject({ code, retryable: true, outcomeUnknown: true });
      expect(gateway.hits(`${V3}/AddTransaction`)).toHaveLength(1);
    },
  );

  it("reports malformed JSON on a read as unavailable with a known outcome, after retries", async () => {
    gateway.on(`${V3}/CheckStatus`, { status: 200, text: "not json" });
    const error = await failure(gateway.client().legacy.checkStatus({ orderId: "o" }));
    expect(error).toMatchObject({ code: "bad_reply", outcomeUnknown: false, raw: "not json" });
    expect(gateway.hits(`${V3}/CheckStatus`)).toHaveLength(3);
  });

  it("reports a v1 2xx that does not match the reply shape", async () => {
    gateway.on("/v1/payments/refund", { json: { status: "SUCCESS", result: { refund_status: "maybe" } } });
    const error = await failure(gateway.client().v1.refund({ transactionId: "t", orderId: "o" }));
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ code: "bad_reply", httpStatus: 200, outcomeUnknown: true });
  });

  it("retries products through a 500 error body, never a 400", async () => {
    const client = gateway.client({ accessToken: "t" });
    gateway.on("/v1/products", {
      status: 500,
      json: { status: "error", error: { error_code: "500", description: "down" } },
    });
    const down = await failure(client.v1.listProducts());
    expect(down).toMatchObject({ code: 500, description: "down", outcomeUnknown: false });
    expect(gateway.hits("/v1/products")).toHaveLength(3);
    gateway.reset();
    gateway.on("/v1/products", {
      status: 400,
      json: { status: "error", error: { error_code: "400", description: "bad" } },
    });
    await failure(client.v1.listProducts());
    expect(gateway.hits("/v1/products")).toHaveLength(1);
  });

  it("keeps secrets out of raw when an error page echoes the form body", async () => {
    gateway.on(`${V3}/StopRecurring`, (request) => ({ status: 500, text: request.text }));
    const error = await failure(gateway.client().legacy.stopRecurring({ cardToken: CARD_TOKEN }));
    const exposed = JSON.stringify([error.raw, error.message]);
    expect(exposed).not.toContain(API_KEY);
    expect(exposed).not.toContain(encodeURIComponent(CARD_TOKEN));
    expect(exposed).toContain("[REDACTED]");
  });
});

describe("network failures", () => {
  it("knows a refused connection reached nobody, even for a money-moving call", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = createGatewayClient({
      baseUrl: `http://127.0.0.1:${port}`,
      legacyUrl: `http://127.0.0.1:${port}`,
      apiKey: API_KEY,
    });
    const error = await failure(client.legacy.getNewPayment({ cardToken: CARD_TOKEN }));
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ code: "network_error", retryable: true, outcomeUnknown: false });
    expect(error.description).toContain("ECONNREFUSED");
  });
});

describe("logging", () => {
  it("logs each call at debug with the request and reply redacted", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: "debug" }, sink);
    gateway.on(`${V3}/CheckStatus`, FOUND);
    await gateway.client({ logger }).legacy.checkStatus({ orderId: "order-1" });
    const records = lines.map((line) => JSON.parse(line) as { msg: string; level: number });
    expect(records.map((record) => record.msg)).toEqual(["gateway request", "gateway reply"]);
    expect(records.every((record) => record.level === 20)).toBe(true);
    const text = lines.join("\n");
    expect(text).toContain("order-1");
    expect(text).toContain("TXN-1001");
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(CARD_TOKEN);
  });
});

describe("options", () => {
  it("refuses unusable options at construction", () => {
    expect(() =>
      createGatewayClient({ baseUrl: "not a url", legacyUrl: "http://x", apiKey: API_KEY }),
    ).toThrow(TypeError);
    expect(() =>
      createGatewayClient({ baseUrl: "http://x", legacyUrl: "http://x", apiKey: API_KEY, readRetries: 5 }),
    ).toThrow(/readRetries/);
  });

  it("keeps a path prefix of the base URL", async () => {
    gateway.on("/prefix/v1/payments/refund", {
      json: {
        status: "SUCCESS",
        result: { refund_status: "completed", mode: "test", refund_transaction_id: "R" },
      },
    });
    const client = gateway.client({ baseUrl: `${gateway.url}/prefix/` });
    await expect(client.v1.refund({ transactionId: "t", orderId: "o" })).resolves.toMatchObject({
      mode: "test",
    });
  });
});
