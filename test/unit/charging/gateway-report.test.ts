import { describe, expect, it } from "vitest";
import { reportFromError, reportFromReply } from "../../../src/charging/index.js";
import { gatewayErrorFrom } from "../../../src/gateway/index.js";

const op = "legacy.getNewPayment" as const;

describe("what a GetnewPayment call reports", () => {
  it("approved, with the transaction and auth code", () => {
    expect(reportFromReply({ transactionId: "123", authCode: "654321", mode: "test" })).toEqual({
      kind: "approved",
      transactionId: "123",
      authCode: "654321",
    });
    expect(reportFromReply({ transactionId: "123", authCode: "", mode: "test" })).toMatchObject({
      authCode: null,
    });
  });

  it("declined on result 0, with the gateway's text and transaction", () => {
    const error = gatewayErrorFrom({
      kind: "legacy-result",
      operation: op,
      result: 0,
      description: "Insufficient funds",
      transactionId: "999",
    });
    expect(reportFromError(error)).toEqual({
      kind: "declined",
      description: "Insufficient funds",
      transactionId: "999",
    });
  });

  it("token_unusable on -7 only", () => {
    expect(
      reportFromError(gatewayErrorFrom({ kind: "legacy-result", operation: op, result: -7 })),
    ).toMatchObject({
      kind: "token_unusable",
      code: "-7",
    });
    // A 404 (a wrong URL, say) says nothing about the card.
    expect(
      reportFromError(gatewayErrorFrom({ kind: "http-status", operation: op, httpStatus: 404 })),
    ).toMatchObject({
      kind: "rejected",
    });
  });

  it.each([
    ["-10 bad request", { kind: "legacy-result", operation: op, result: -10 }],
    ["-1 unauthorized", { kind: "legacy-result", operation: op, result: -1 }],
    ["-20 currency", { kind: "legacy-result", operation: op, result: -20 }],
    ["a 400", { kind: "http-status", operation: op, httpStatus: 400 }],
  ] as const)("rejected, nothing moved: %s", (_name, failure) => {
    expect(reportFromError(gatewayErrorFrom(failure))).toMatchObject({ kind: "rejected" });
  });

  it.each([
    ["a connection never made", { kind: "network", operation: op, sent: false, description: "ECONNREFUSED" }],
  ] as const)("not_sent: %s", (_name, failure) => {
    expect(reportFromError(gatewayErrorFrom(failure))).toMatchObject({ kind: "not_sent" });
  });

  it("throttled, nothing moved: a 429 (too many requests), whatever its body says", () => {
    expect(
      reportFromError(gatewayErrorFrom({ kind: "http-status", operation: op, httpStatus: 429 })),
    ).toMatchObject({ kind: "throttled" });
    expect(
      reportFromError(
        gatewayErrorFrom({ kind: "http-status", operation: op, httpStatus: 429, errorCode: "rate_limited" }),
      ),
    ).toMatchObject({ kind: "throttled" });
  });

  it.each([
    ["a timeout", { kind: "timeout", operation: op, timeoutMs: 100 }],
    ["a 503", { kind: "http-status", operation: op, httpStatus: 503 }],
    ["a dropped reply", { kind: "network", operation: op, sent: true, description: "socket hang up" }],
    ["an unreadable reply", { kind: "bad-reply", operation: op, description: "not JSON" }],
    ["an unknown result code", { kind: "legacy-result", operation: op, result: -6 }],
    // A decline that names no declined payment may be a payment the gateway applied.
    ["a bare result 0", { kind: "legacy-result", operation: op, result: 0 }],
    [
      "result 0 without a transaction id",
      { kind: "legacy-result", operation: op, result: 0, description: "Insufficient funds" },
    ],
    [
      "result 0 without a description",
      { kind: "legacy-result", operation: op, result: 0, transactionId: "9" },
    ],
  ] as const)("unknown, money may have moved: %s", (_name, failure) => {
    expect(reportFromError(gatewayErrorFrom(failure))).toMatchObject({ kind: "unknown" });
  });

  it("unknown for anything that is not a gateway error", () => {
    expect(reportFromError(new TypeError("boom"))).toEqual({ kind: "unknown", description: "boom" });
    expect(reportFromError("odd")).toEqual({ kind: "unknown", description: "odd" });
  });
});
