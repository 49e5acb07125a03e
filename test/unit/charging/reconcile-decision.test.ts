import { describe, expect, it } from "vitest";
import { decideReconcile, type ReconcileInput, type StatusLookup } from "../../../src/charging/index.js";
import type { PaymentRecord, PaymentState } from "../../../src/gateway/index.js";

function payment(state: PaymentState, description = "Approved"): PaymentRecord {
  return {
    transactionId: "100200300400",
    amount: { minor: 10_000, currency: "QAR" },
    paymentDate: "2026-01-15T09:00:00Z",
    state,
    authCode: state === "SUCCESS" ? "123456" : "",
    mode: "test",
    cardToken: "tok",
    description,
  };
}

const found = (state: PaymentState, description?: string): StatusLookup => ({
  kind: "lookup",
  result: { found: true, payment: payment(state, description) },
});
const notFound: StatusLookup = { kind: "lookup", result: { found: false } };
const failed: StatusLookup = { kind: "failed", description: "HTTP 503" };

const decide = (overrides: Partial<ReconcileInput>) =>
  decideReconcile({ lookup: notFound, quiet: true, reconcileTries: 0, maxTries: 5, ...overrides });

describe("reconciling an attempt whose outcome is unknown", () => {
  it("settles as approved when the gateway has the payment, quiet or not", () => {
    for (const quiet of [true, false]) {
      expect(decide({ lookup: found("SUCCESS"), quiet })).toEqual({
        kind: "settle",
        report: { kind: "approved", transactionId: "100200300400", authCode: "123456" },
      });
    }
  });

  it("settles as declined when the gateway has it failed", () => {
    expect(decide({ lookup: found("FAILURE", "Insufficient funds") })).toEqual({
      kind: "settle",
      report: { kind: "declined", description: "Insufficient funds", transactionId: "100200300400" },
    });
  });

  it("finds it not charged when the gateway does not know the orderId once the attempt is quiet", () => {
    expect(decide({ lookup: notFound, quiet: true })).toEqual({ kind: "not_charged" });
  });

  it("waits without counting when not found too soon: the call may still be on its way", () => {
    expect(decide({ lookup: notFound, quiet: false, reconcileTries: 4 })).toMatchObject({
      kind: "wait",
      counted: false,
    });
  });

  it.each([
    ["PENDING", found("PENDING")],
    ["CheckStatus failing", failed],
  ])("waits and counts on %s, then asks an operator at the limit", (_name, lookup) => {
    expect(decide({ lookup, reconcileTries: 0, maxTries: 3 })).toMatchObject({ kind: "wait", counted: true });
    expect(decide({ lookup, reconcileTries: 1, maxTries: 3 })).toMatchObject({ kind: "wait", counted: true });
    expect(decide({ lookup, reconcileTries: 2, maxTries: 3 })).toMatchObject({ kind: "needs_review" });
    expect(decide({ lookup, reconcileTries: 0, maxTries: 1 })).toMatchObject({ kind: "needs_review" });
  });

  it.each([
    [0, 5],
    [4, 5],
    [0, 1],
  ])(
    "while the circuit breaker is open, CheckStatus failing waits uncounted (tries %i of %i): the attempt is left for when the gateway recovers",
    (reconcileTries, maxTries) => {
      expect(decide({ lookup: failed, breakerOpen: true, reconcileTries, maxTries })).toEqual({
        kind: "wait",
        counted: false,
        why: "CheckStatus failed: HTTP 503 (not counted: the gateway circuit breaker is open)",
      });
    },
  );

  it.each([
    [0, 5],
    [4, 5],
    [0, 1],
  ])(
    "a throttled CheckStatus (429) waits uncounted (tries %i of %i): nothing was asked",
    (reconcileTries, maxTries) => {
      expect(
        decide({ lookup: { kind: "throttled", description: "HTTP 429" }, reconcileTries, maxTries }),
      ).toEqual({ kind: "wait", counted: false, why: "CheckStatus throttled: HTTP 429" });
    },
  );

  it("while the circuit breaker is open, an answer is acted on as ever", () => {
    const open = { breakerOpen: true, reconcileTries: 4, maxTries: 5 };
    expect(decide({ ...open, lookup: found("SUCCESS") })).toMatchObject({ kind: "settle" });
    expect(decide({ ...open, lookup: notFound })).toEqual({ kind: "not_charged" });
    expect(decide({ ...open, lookup: found("PENDING") })).toMatchObject({ kind: "needs_review" });
  });

  it("refuses nonsense counts", () => {
    expect(() => decide({ maxTries: 0 })).toThrow(RangeError);
    expect(() => decide({ reconcileTries: -1 })).toThrow(RangeError);
  });
});
