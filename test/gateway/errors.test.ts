import { describe, expect, it } from "vitest";
import {
  GatewayAuthenticationError,
  GatewayError,
  GatewayRejectedError,
  GatewayUnavailableError,
  gatewayErrorFrom,
} from "../../src/gateway/index.js";

describe("gatewayErrorFrom", () => {
  it("builds named subclasses of GatewayError", () => {
    const error = gatewayErrorFrom({ kind: "legacy-result", operation: "legacy.refund", result: -10 });
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("GatewayRejectedError");
    expect(error.message).toBe(
      "legacy.refund failed: Bad Request: required parameters were not sent (code -10)",
    );
  });

  it("classifies a 2xx carrying an error body by its error_code", () => {
    const error = gatewayErrorFrom({
      kind: "http-status",
      operation: "v1.createInvoice",
      httpStatus: 200,
      errorCode: "401",
      description: "expired",
    });
    expect(error).toBeInstanceOf(GatewayAuthenticationError);
    expect(error).toMatchObject({ code: 401, httpStatus: 200 });
  });

  it("treats 429 as unavailable without an unknown outcome, even for money-moving calls", () => {
    const error = gatewayErrorFrom({ kind: "http-status", operation: "v1.checkout", httpStatus: 429 });
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ retryable: true, outcomeUnknown: false, description: "HTTP 429" });
  });

  it("treats a redirect as no usable answer", () => {
    const error = gatewayErrorFrom({ kind: "http-status", operation: "v1.refund", httpStatus: 302 });
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error.outcomeUnknown).toBe(true);
  });

  it("keeps a non-numeric error_code as text", () => {
    const error = gatewayErrorFrom({
      kind: "http-status",
      operation: "v1.refund",
      httpStatus: 422,
      errorCode: "E_REFUND_WINDOW",
    });
    expect(error).toBeInstanceOf(GatewayRejectedError);
    expect(error.code).toBe("E_REFUND_WINDOW");
  });

  it("redacts raw replies and descriptions", () => {
    const error = gatewayErrorFrom({
      kind: "bad-reply",
      operation: "legacy.stopRecurring",
      description: "echo token=secret-guid",
      raw: { cardToken: "abc+/=|", nested: { Authorization: "Bearer xyz" }, api_key: "k" },
    });
    expect(error.raw).toEqual({
      cardToken: "[REDACTED]",
      nested: { Authorization: "[REDACTED]" },
      api_key: "[REDACTED]",
    });
    expect(error.description).toBe("echo token=[REDACTED]");
  });
});
