import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  GatewayAuthenticationError,
  type GatewayError,
  GatewayNotFoundError,
  GatewayRejectedError,
  GatewayUnknownResultError,
} from "../../src/gateway/index.js";
import { failure } from "./support/failure.js";
import { CARD_TOKEN, FakeGateway } from "./support/fake-gateway.js";

let gateway: FakeGateway;

beforeAll(async () => {
  gateway = await FakeGateway.start();
});
afterAll(() => gateway.close());
beforeEach(() => gateway.reset());

type ErrorClass = abstract new (...args: never[]) => GatewayError;

describe("legacy result codes (sent with HTTP 200)", () => {
  it.each<[number, ErrorClass, RegExp]>([
    [-1, GatewayAuthenticationError, /Unauthorized/],
    [-2, GatewayNotFoundError, /orderId is unknown/],
    [-3, GatewayRejectedError, /currency/],
    [-7, GatewayNotFoundError, /recurring or autosave/],
    [-8, GatewayAuthenticationError, /GUID/],
    [-10, GatewayRejectedError, /required parameters/],
    [-20, GatewayRejectedError, /application data/],
    [-21, GatewayRejectedError, /void/],
  ])("maps %i to %o with the spec's meaning", async (code, errorClass, meaning) => {
    gateway.on("/legacy/v3/StopRecurring", { json: { result: code } });
    const error = await failure(gateway.client().legacy.stopRecurring({ cardToken: CARD_TOKEN }));
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({
      code,
      operation: "legacy.stopRecurring",
      httpStatus: 200,
      retryable: false,
      outcomeUnknown: false,
    });
    expect(error.description).toMatch(meaning);
    expect(gateway.hits("/legacy/v3/StopRecurring")).toHaveLength(1);
  });

  it("keeps -1 and -8 recognisable as rejections", async () => {
    gateway.on("/legacy/v3/Refund", { json: { result: -8 } });
    const error = await failure(gateway.client().legacy.refund({ orderId: "o" }));
    expect(error).toBeInstanceOf(GatewayRejectedError);
  });

  it("prefers the gateway's own description when it sends one", async () => {
    gateway.on("/legacy/v3/Refund", { json: { result: -10, description: "orderId is required" } });
    const error = await failure(gateway.client().legacy.refund({ orderId: "o" }));
    expect(error.description).toBe("orderId is required");
  });

  it("keeps an unknown code's number and marks a money-moving call's outcome unknown", async () => {
    gateway.on("/legacy/v3/GetnewPayment", { json: { result: -6 } });
    const error = await failure(gateway.client().legacy.getNewPayment({ cardToken: CARD_TOKEN }));
    expect(error).toBeInstanceOf(GatewayUnknownResultError);
    expect(error).toMatchObject({
      code: -6,
      description: "unknown result code -6",
      retryable: false,
      outcomeUnknown: true,
    });
  });

  it("keeps an unknown code's text and leaves a read-only call's outcome known", async () => {
    gateway.on("/legacy/v3/CheckStatus", { json: { result: "-6", description: "strange" } });
    const error = await failure(gateway.client().legacy.checkStatus({ orderId: "o" }));
    expect(error).toBeInstanceOf(GatewayUnknownResultError);
    expect(error).toMatchObject({
      code: -6,
      description: "unknown result code -6: strange",
      outcomeUnknown: false,
    });
    // A definite (if unexplained) answer is not retried.
    expect(gateway.hits("/legacy/v3/CheckStatus")).toHaveLength(1);
  });

  it("treats result 0 outside check-status and GetnewPayment as unknown", async () => {
    gateway.on("/legacy/v3/Refund", { json: { result: 0 } });
    const error = await failure(gateway.client().legacy.refund({ orderId: "o" }));
    expect(error).toBeInstanceOf(GatewayUnknownResultError);
    expect(error).toMatchObject({ code: 0, outcomeUnknown: true });
  });

  it("treats an integer result on AddTransaction as unknown rather than success", async () => {
    gateway.on("/legacy/v3/AddTransaction", { json: { result: 1 } });
    const error = await failure(
      gateway.client().legacy.addTransaction({
        amount: { minor: 100, currency: "QAR" },
        orderId: "o",
        customerEmail: "a@example.com",
      }),
    );
    expect(error).toBeInstanceOf(GatewayUnknownResultError);
    expect(error.code).toBe(1);
  });
});
