import { describe, expect, it } from "vitest";
import { decideVerification, voidOutcomeOf } from "../../../src/enrollment/index.js";
import type { PaymentLookup, PaymentRecord } from "../../../src/gateway/index.js";

const expected = { amountMinor: 10_000, currency: "QAR" };

function record(overrides: Partial<PaymentRecord> = {}): PaymentLookup {
  return {
    found: true,
    payment: {
      transactionId: "100000000001",
      amount: { minor: 10_000, currency: "QAR" },
      paymentDate: "2026-01-15T09:00:00Z",
      state: "SUCCESS",
      mode: "test",
      cardToken: "tok+/=|x",
      description: "Approved",
      refundState: true,
      refundStatus: "SUCCESS",
      refundTransactionId: "100000000002",
      ...overrides,
    },
  };
}

describe("decideVerification", () => {
  it("ignores an order the gateway does not know", () => {
    expect(decideVerification(expected, { found: false })).toEqual({
      kind: "ignore",
      reason: "payment_not_found",
    });
  });

  it("ignores a payment that is still pending", () => {
    expect(decideVerification(expected, record({ state: "PENDING", cardToken: null }))).toEqual({
      kind: "ignore",
      reason: "payment_pending",
    });
  });

  it("fails with the gateway's description", () => {
    expect(decideVerification(expected, record({ state: "FAILURE", description: "Invalid CVV" }))).toEqual({
      kind: "fail",
      transactionId: "100000000001",
      description: "Invalid CVV",
    });
  });

  it("fails with a plain description when the gateway gives none", () => {
    const decision = decideVerification(expected, record({ state: "FAILURE", description: undefined }));
    expect(decision).toMatchObject({ kind: "fail", description: "the payment was declined" });
  });

  it("completes a matching success with its card token and isVoid outcome", () => {
    expect(decideVerification(expected, record())).toEqual({
      kind: "complete",
      transactionId: "100000000001",
      cardToken: "tok+/=|x",
      voidOutcome: { refunded: "yes", refundTransactionId: "100000000002", description: "SUCCESS" },
    });
  });

  it.each([
    ["another amount", { amount: { minor: 9_999, currency: "QAR" } }, "amount_mismatch"],
    ["another currency", { amount: { minor: 10_000, currency: "USD" } }, "currency_mismatch"],
    ["no card token", { cardToken: null }, "no_card_token"],
  ] as const)("flags a success with %s instead of completing", (_case, overrides, reason) => {
    expect(decideVerification(expected, record(overrides))).toMatchObject({
      kind: "mismatch",
      reason,
      transactionId: "100000000001",
    });
  });
});

describe("voidOutcomeOf", () => {
  it("reads a returned payment", () => {
    expect(
      voidOutcomeOf({ refundState: true, refundStatus: "Processing", refundTransactionId: "9" }),
    ).toEqual({
      refunded: "yes",
      refundTransactionId: "9",
      description: "Processing",
    });
  });

  it("takes a named refund transaction as returned even without refundState", () => {
    expect(voidOutcomeOf({ refundTransactionId: "9" })).toMatchObject({ refunded: "yes" });
  });

  it("reads a payment that was not returned, with or without a description", () => {
    expect(voidOutcomeOf({ refundState: false, refundDescription: "Void declined by the issuer" })).toEqual({
      refunded: "no",
      description: "Void declined by the issuer",
    });
    expect(voidOutcomeOf({ refundState: false })).toEqual({
      refunded: "no",
      description: "the gateway did not return the verification payment",
    });
  });

  it("says unknown when the record is silent", () => {
    expect(voidOutcomeOf({})).toEqual({ refunded: "unknown" });
  });
});
