import { describe, expect, it } from "vitest";
import {
  GatewayDeclinedError,
  GatewayNotFoundError,
  GatewayRejectedError,
  GatewayUnavailableError,
  GatewayUnknownResultError,
  gatewayErrorFrom,
  isRetrySafe,
  withReadRetries,
} from "../../src/gateway/index.js";

const policy = { retries: 2, baseMs: 0, capMs: 0 };

describe("isRetrySafe", () => {
  it("allows transport trouble on reads and refuses it on money-moving calls", () => {
    const read = gatewayErrorFrom({ kind: "timeout", operation: "legacy.checkStatus", timeoutMs: 10 });
    const charge = gatewayErrorFrom({ kind: "timeout", operation: "legacy.getNewPayment", timeoutMs: 10 });
    expect(isRetrySafe(read)).toBe(true);
    expect(isRetrySafe(charge)).toBe(false);
  });

  it("allows a money-moving call whose connection was never made", () => {
    const error = gatewayErrorFrom({
      kind: "network",
      operation: "v1.checkout",
      sent: false,
      description: "network error ECONNREFUSED",
    });
    expect(error).toMatchObject({ outcomeUnknown: false, retryable: true });
    expect(isRetrySafe(error)).toBe(true);
  });

  it("refuses definite answers and foreign errors", () => {
    const answers = [
      new GatewayDeclinedError({
        operation: "legacy.getNewPayment",
        code: 0,
        description: "declined",
        transactionId: "T-1",
      }),
      new GatewayRejectedError({ operation: "v1.refund", code: 400, description: "bad" }),
      new GatewayNotFoundError({ operation: "legacy.checkStatus", code: -2, description: "none" }),
      new GatewayUnknownResultError({
        operation: "legacy.checkStatus",
        code: -6,
        description: "unknown result code -6",
        outcomeUnknown: false,
      }),
    ];
    for (const error of answers) expect(isRetrySafe(error)).toBe(false);
    expect(isRetrySafe(new Error("boom"))).toBe(false);
    expect(isRetrySafe("timeout")).toBe(false);
  });
});

describe("withReadRetries", () => {
  const unavailable = (operation: "legacy.checkStatus" | "legacy.stopRecurring" | "v1.authorize") =>
    new GatewayUnavailableError({ operation, code: 503, description: "busy", outcomeUnknown: false });

  it("repeats a read up to the retry count", async () => {
    let calls = 0;
    await expect(
      withReadRetries("legacy.checkStatus", policy, async () => {
        calls++;
        throw unavailable("legacy.checkStatus");
      }),
    ).rejects.toBeInstanceOf(GatewayUnavailableError);
    expect(calls).toBe(3);
  });

  it("runs a money-moving call once even when its failure looks retry-safe", async () => {
    let calls = 0;
    await expect(
      withReadRetries("legacy.stopRecurring", policy, async () => {
        calls++;
        throw unavailable("legacy.stopRecurring");
      }),
    ).rejects.toBeInstanceOf(GatewayUnavailableError);
    expect(calls).toBe(1);
  });

  it("leaves failures of another operation to that operation's own retries", async () => {
    let calls = 0;
    await expect(
      withReadRetries("legacy.checkStatus", policy, async () => {
        calls++;
        throw unavailable("v1.authorize");
      }),
    ).rejects.toBeInstanceOf(GatewayUnavailableError);
    expect(calls).toBe(1);
  });
});
