import { z } from "zod";
import { ATTEMPT_STATES, CHARGE_KINDS, CHARGE_REFUND_STATES, CHARGE_STATES } from "../billing/index.js";
import { type AttemptSummary, type ChargeRow, type LinkSigner, paymentLinkOf } from "./charge-rows.js";
import { iso, moneySchema, presentMoney, timestamp } from "./shapes.js";

/**
 * The charge as the merchant sees it, in one shape wherever it appears: the API's replies and the
 * object a charge.* webhook carries (src/webhooks/event-objects.ts), so the two cannot drift.
 */

export const chargeAttemptSchema = z
  .object({
    attempt: z.number().int(),
    order_id: z.string(),
    status: z.enum(ATTEMPT_STATES),
    transaction_id: z.string().nullable(),
    decline_code: z.string().nullable(),
    duplicate: z
      .boolean()
      .describe("Paid late by the gateway after another attempt paid the period; refunded"),
    created_at: timestamp,
  })
  .meta({ id: "ChargeAttempt" });

export function presentAttempt(row: AttemptSummary): z.infer<typeof chargeAttemptSchema> {
  return {
    attempt: row.attemptNumber,
    order_id: row.orderId,
    status: row.status,
    transaction_id: row.gatewayTransactionId,
    decline_code: row.declineCode,
    duplicate: row.duplicateAt !== null,
    created_at: iso(row.createdAt),
  };
}

export const chargeSchema = z
  .object({
    id: z.uuid(),
    subscription_id: z.uuid(),
    status: z.enum(CHARGE_STATES),
    kind: z
      .enum(CHARGE_KINDS)
      .describe(
        "A billing period, the difference of a plan change, or a one-off charge collected on its own",
      ),
    plan_id: z.uuid().describe("The plan the charge bills, as it was when the charge was created"),
    plan_change_id: z.uuid().nullable(),
    amount: moneySchema.describe(
      "What is collected: the price less discount and credit (zero is paid without the gateway)",
    ),
    discount: moneySchema.describe("Taken off the price by a coupon"),
    discount_percent: z.number().int().nullable().describe("The coupon's percentage, when it was one"),
    coupon_id: z.uuid().nullable(),
    credit: moneySchema.describe("Taken off the price from the subscription's credit"),
    period_start: timestamp,
    period_end: timestamp,
    attempt_count: z.number().int(),
    next_attempt_at: timestamp.nullable(),
    last_decline_code: z.string().nullable(),
    last_decline_description: z.string().nullable(),
    paid_at: timestamp.nullable(),
    paid_transaction_id: z.string().nullable().describe("The gateway transaction that paid the charge"),
    refund_status: z
      .enum(CHARGE_REFUND_STATES)
      .nullable()
      .describe(
        "The charge stays paid when refunded; this says what became of its refund: refund_pending (asked, the gateway's answer not known yet), refunded (the gateway took it, see refund_processing), refund_failed (refused or never sent; another refund may be asked), or null (never refunded). Refunds of a duplicate payment do not count: they leave the charge paid",
      ),
    refund_processing: z
      .boolean()
      .describe(
        "Refunded, but the gateway is still returning the money (refund under_processing, after settlement): the customer may not see it on their card yet",
      ),
    refunded_minor: z
      .number()
      .int()
      .describe(
        "Money returned (completed and under_processing refunds), in minor units of the charge's currency",
      ),
    payment_link: z
      .url()
      .nullable()
      .describe(
        "Where the customer pays the charge, while it is awaiting_payment (a subscription paying by payment link); null otherwise",
      ),
    attempts: z
      .array(chargeAttemptSchema)
      .describe(
        "Every call to the gateway for the charge, oldest first, with the orderId it carried: GetnewPayment with the card, or a checkout of its payment link",
      ),
    created_at: timestamp,
  })
  .meta({ id: "Charge" });

export type ChargeBody = z.infer<typeof chargeSchema>;

/**
 * The charge as the API shows it; `links` signs its payment link, if it has one (null: a CLI read
 * without the token key, which shows none).
 */
export function presentCharge(row: ChargeRow, links: LinkSigner | null): ChargeBody {
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    status: row.status,
    kind: row.kind,
    plan_id: row.planId,
    plan_change_id: row.planChangeId,
    amount: presentMoney(row.amountMinor, row.currency),
    discount: presentMoney(row.discountMinor, row.currency),
    discount_percent: row.discountPercent,
    coupon_id: row.couponId,
    credit: presentMoney(row.creditMinor, row.currency),
    period_start: iso(row.periodStart),
    period_end: iso(row.periodEnd),
    attempt_count: row.attemptCount,
    next_attempt_at: iso(row.nextAttemptAt),
    last_decline_code: row.lastDeclineCode,
    last_decline_description: row.lastDeclineDescription,
    paid_at: iso(row.paidAt),
    paid_transaction_id: row.paidTransactionId,
    refund_status: row.refund.status,
    refund_processing: row.refund.processing,
    refunded_minor: row.refund.refundedMinor,
    payment_link: paymentLinkOf(row, links),
    attempts: row.attempts.map(presentAttempt),
    created_at: iso(row.createdAt),
  };
}
