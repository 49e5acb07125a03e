/**
 * What a charge's refunds say about it, for everything that shows a charge (API, CLI, ops page,
 * portal). A refund goes through requested → completed | under_processing | failed | unknown; the
 * charge itself stays `paid` (refunds never reopen it), so its refund state is derived here:
 * - refunded: a refund completed or under_processing. under_processing means the gateway accepted
 *   the refund and is returning the money after settlement: nothing more is asked of anyone and the
 *   money is gone from the merchant's collections, so a user reads it as refunded; `processing`
 *   says the customer may not see it on their card yet. Every surface shows it that way;
 * - refund_pending: a refund requested or unknown (the gateway's answer is not known yet);
 * - refund_failed: only failed refunds (the money was not returned; another refund may be asked);
 * - null: never refunded.
 * A refund of a duplicate payment (reason `duplicate`, late-payments/) returns money paid twice and
 * leaves the charge paid, so it is not the charge's refund. Pure; amounts are integer minor units.
 */

export type RefundStatus = "requested" | "completed" | "under_processing" | "failed" | "unknown";
export type RefundReason = "requested" | "duplicate";

export const CHARGE_REFUND_STATES = ["refund_pending", "refunded", "refund_failed"] as const;
export type ChargeRefundState = (typeof CHARGE_REFUND_STATES)[number];

export interface RefundFact {
  readonly status: RefundStatus;
  readonly reason: RefundReason;
  readonly amountMinor: number;
}

export interface ChargeRefund {
  readonly status: ChargeRefundState | null;
  /** Money returned: the completed and under_processing refunds. */
  readonly refundedMinor: number;
  /** Refunded, but the gateway is still returning (some of) the money: under_processing. */
  readonly processing: boolean;
}

const RETURNED: readonly RefundStatus[] = ["completed", "under_processing"];
const OPEN: readonly RefundStatus[] = ["requested", "unknown"];

export function chargeRefund(refunds: readonly RefundFact[]): ChargeRefund {
  const own = refunds.filter((refund) => refund.reason !== "duplicate");
  const returned = own.filter((refund) => RETURNED.includes(refund.status));
  const refundedMinor = returned.reduce((total, refund) => total + refund.amountMinor, 0);
  const processing = returned.some((refund) => refund.status === "under_processing");
  if (returned.length > 0) return { status: "refunded", refundedMinor, processing };
  if (own.some((refund) => OPEN.includes(refund.status))) {
    return { status: "refund_pending", refundedMinor, processing };
  }
  return { status: own.length > 0 ? "refund_failed" : null, refundedMinor, processing };
}
