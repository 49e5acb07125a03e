import type { PaymentLookup } from "../gateway/index.js";
import type { NeedsAttentionReason } from "./events.js";

/** What the enrollment asked the gateway to take: the figures a verified payment must match. */
export interface ExpectedPayment {
  readonly amountMinor: number;
  readonly currency: string;
}

/**
 * The gateway's automatic return of an isVoid verification payment, as its record reports it:
 * - yes: the money went back (refundTransactionId when the gateway names the return);
 * - no: it did not, so the customer is out of pocket until someone refunds it;
 * - unknown: the record does not say.
 */
export type VoidOutcome =
  | {
      readonly refunded: "yes";
      readonly refundTransactionId: string | null;
      readonly description: string | null;
    }
  | { readonly refunded: "no"; readonly description: string }
  | { readonly refunded: "unknown" };

/** What a verified payment record means for the enrollment that started it. */
export type VerificationDecision =
  | {
      readonly kind: "complete";
      readonly transactionId: string;
      readonly cardToken: string;
      readonly voidOutcome: VoidOutcome;
    }
  | { readonly kind: "fail"; readonly transactionId: string; readonly description: string }
  /** Nothing to act on yet: no payment for the order, or it is still being processed. */
  | { readonly kind: "ignore"; readonly reason: "payment_not_found" | "payment_pending" }
  /** The gateway says SUCCESS, but not for what we asked: an operator must look, nothing is applied. */
  | {
      readonly kind: "mismatch";
      readonly reason: Extract<
        NeedsAttentionReason,
        "amount_mismatch" | "currency_mismatch" | "no_card_token"
      >;
      readonly transactionId: string;
      readonly detail: string;
    };

const NOT_RETURNED = "the gateway did not return the verification payment";
const DECLINED = "the payment was declined";

export function voidOutcomeOf(payment: {
  refundState?: boolean;
  refundStatus?: string;
  refundDescription?: string;
  refundTransactionId?: string;
}): VoidOutcome {
  if (payment.refundState === true || (payment.refundState === undefined && payment.refundTransactionId)) {
    return {
      refunded: "yes",
      refundTransactionId: payment.refundTransactionId ?? null,
      description: payment.refundStatus ?? payment.refundDescription ?? null,
    };
  }
  if (payment.refundState === false) {
    return { refunded: "no", description: payment.refundDescription ?? NOT_RETURNED };
  }
  return { refunded: "unknown" };
}

/**
 * The decision table of a callback, from the gateway's record alone:
 *
 * | record                                   | decision                |
 * |------------------------------------------|-------------------------|
 * | none for the order                       | ignore                  |
 * | PENDING                                  | ignore                  |
 * | FAILURE                                  | fail (its description)  |
 * | SUCCESS, other currency                  | mismatch                |
 * | SUCCESS, other amount                    | mismatch                |
 * | SUCCESS without a card token             | mismatch                |
 * | SUCCESS, same amount and currency, token | complete (+ isVoid outcome) |
 */
export function decideVerification(expected: ExpectedPayment, lookup: PaymentLookup): VerificationDecision {
  if (!lookup.found) return { kind: "ignore", reason: "payment_not_found" };
  const { payment } = lookup;
  switch (payment.state) {
    case "PENDING":
      return { kind: "ignore", reason: "payment_pending" };
    case "FAILURE":
      return {
        kind: "fail",
        transactionId: payment.transactionId,
        description: payment.description ?? DECLINED,
      };
    case "SUCCESS":
      break;
  }
  const { transactionId, amount } = payment;
  if (amount.currency !== expected.currency) {
    return {
      kind: "mismatch",
      reason: "currency_mismatch",
      transactionId,
      detail: `paid in ${amount.currency}, enrollment is in ${expected.currency}`,
    };
  }
  if (amount.minor !== expected.amountMinor) {
    return {
      kind: "mismatch",
      reason: "amount_mismatch",
      transactionId,
      detail: `paid ${amount.minor} minor units, enrollment asked ${expected.amountMinor}`,
    };
  }
  if (!payment.cardToken) {
    return {
      kind: "mismatch",
      reason: "no_card_token",
      transactionId,
      detail: "the payment carries no card token",
    };
  }
  return {
    kind: "complete",
    transactionId,
    cardToken: payment.cardToken,
    voidOutcome: voidOutcomeOf(payment),
  };
}
