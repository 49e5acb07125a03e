import type { ChargeRow } from "../api/services/charges.js";
import type { SubscriptionView } from "../api/services/subscriptions.js";
import type { StoredCoupon } from "../coupons/index.js";
import type { DocumentLinks, IssuedDocument } from "../customer-documents/index.js";
import type { Customer } from "../customers/index.js";
import { toDecimalString } from "../money/index.js";
import type { StoredPlan } from "../plans/index.js";
import type { RefundRow } from "../refunds/index.js";

/**
 * The JSON shapes the CLI prints: snake_case and ISO timestamps like the merchant API, amounts as
 * the currency's decimal string with the minor units beside it.
 */

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

/**
 * A plan; its tiers as `--tier` and the API take them (decimals in its currency, up_to null for the
 * open last tier). The amount is the price of a period, a unit or a package; 0 for tiered and volume.
 */
export function presentPlan(plan: StoredPlan) {
  const { price } = plan;
  const { currency } = plan.amount;
  return {
    id: plan.id,
    name: plan.name,
    price_model: price.model,
    amount: toDecimalString(plan.amount.minor, currency),
    amount_minor: plan.amount.minor,
    currency,
    tiers:
      price.model === "tiered" || price.model === "volume"
        ? price.tiers.map((tier) => ({
            up_to: tier.upTo,
            unit_amount: toDecimalString(tier.unitAmountMinor, currency),
            flat_amount: toDecimalString(tier.flatAmountMinor, currency),
          }))
        : null,
    package_size: price.model === "package" ? price.packageSize : null,
    interval: plan.intervalUnit,
    interval_count: plan.intervalCount,
    trial_days: plan.trialDays,
    product_id: plan.productId ?? null,
    billing_mode: plan.billingMode,
    collection_method: plan.collectionMethod,
    trial_without_card: plan.trialWithoutCard,
    usage_threshold:
      plan.usageThresholdMinor === null ? null : toDecimalString(plan.usageThresholdMinor, currency),
    usage_threshold_minor: plan.usageThresholdMinor,
    archived: plan.archivedAt !== null,
    archived_at: iso(plan.archivedAt),
    created_at: iso(plan.createdAt),
  };
}

export function presentCustomer(customer: Customer) {
  return {
    id: customer.id,
    email: customer.email,
    name: customer.name,
    phone: customer.phone,
    language: customer.language,
    time_zone: customer.timeZone,
    message_opt_outs: customer.messageOptOuts,
    created_at: iso(customer.createdAt),
  };
}

/** A coupon's terms, flat: the percent, or the amount with its currency. */
function couponTerms(coupon: StoredCoupon) {
  const { terms } = coupon;
  const fixed = terms.type === "fixed" ? terms : null;
  return {
    discount_type: terms.type,
    percent_off: terms.type === "percentage" ? terms.percentOff : null,
    amount_off: fixed && toDecimalString(fixed.amountOffMinor, fixed.currency),
    amount_off_minor: fixed?.amountOffMinor ?? null,
    currency: fixed?.currency ?? null,
    duration: coupon.duration,
    duration_periods: coupon.durationPeriods,
  };
}

export function presentCoupon(coupon: StoredCoupon) {
  return {
    id: coupon.id,
    code: coupon.code,
    name: coupon.name,
    ...couponTerms(coupon),
    max_redemptions: coupon.maxRedemptions,
    redemptions: coupon.redemptions,
    expires_at: iso(coupon.expiresAt),
    archived: coupon.archivedAt !== null,
    archived_at: iso(coupon.archivedAt),
    created_at: iso(coupon.createdAt),
  };
}

export function presentSubscription(row: SubscriptionView) {
  return {
    id: row.id,
    customer_id: row.customerId,
    plan_id: row.planId,
    quantity: row.quantity,
    status: row.status,
    collection_method: row.collectionMethod,
    current_period_start: iso(row.currentPeriodStart),
    current_period_end: iso(row.currentPeriodEnd),
    next_billing_at: iso(row.nextBillingAt),
    trial_end: iso(row.trialEnd),
    cancel_at_period_end: row.cancelAtPeriodEnd,
    canceled_at: iso(row.canceledAt),
    discount: row.discount && {
      coupon_code: row.discount.coupon.code,
      ...couponTerms(row.discount.coupon),
      periods_applied: row.discount.periodsApplied,
      applied_at: iso(row.discount.appliedAt),
    },
    created_at: iso(row.createdAt),
  };
}

/**
 * A charge; `paymentLink` is where its customer pays it while it is awaiting_payment (else null).
 * Its refund state is the API's (billing/refund-state.ts), with the refunded amount as a decimal too.
 */
export function presentCharge(row: ChargeRow, paymentLink: string | null) {
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    status: row.status,
    kind: row.kind,
    plan_id: row.planId,
    plan_change_id: row.planChangeId,
    amount: toDecimalString(row.amountMinor, row.currency),
    amount_minor: row.amountMinor,
    currency: row.currency,
    discount: toDecimalString(row.discountMinor, row.currency),
    discount_percent: row.discountPercent,
    credit: toDecimalString(row.creditMinor, row.currency),
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
    refunded: toDecimalString(row.refund.refundedMinor, row.currency),
    refunded_minor: row.refund.refundedMinor,
    payment_link: paymentLink,
    attempts: row.attempts.map((attempt) => ({
      attempt: attempt.attemptNumber,
      order_id: attempt.orderId,
      status: attempt.status,
      transaction_id: attempt.gatewayTransactionId,
      decline_code: attempt.declineCode,
      duplicate: attempt.duplicateAt !== null,
      created_at: iso(attempt.createdAt),
    })),
    created_at: iso(row.createdAt),
  };
}

export function presentRefund(row: RefundRow) {
  return {
    id: row.id,
    charge_id: row.chargeId,
    reason: row.reason,
    status: row.status,
    amount: toDecimalString(row.amountMinor, row.currency),
    amount_minor: row.amountMinor,
    currency: row.currency,
    refunded_transaction_id: row.refundedTransactionId,
    gateway_refund_transaction_id: row.gatewayRefundTransactionId,
    description: row.description,
    created_at: iso(row.createdAt),
    settled_at: iso(row.settledAt),
  };
}

/**
 * A receipt or a credit note: its number, amounts flat, the signed links the customer opens it by
 * (null without a token key to sign them), and where its PDF was written, if asked.
 */
export function presentDocument(
  document: IssuedDocument,
  links: DocumentLinks | null,
  pdfFile: string | null,
) {
  const { tax, currency } = document;
  return {
    number: document.number,
    id: document.id,
    charge_id: document.chargeId,
    ...(document.refundId === null ? {} : { refund_id: document.refundId }),
    customer_id: document.customerId,
    issued_at: iso(document.issuedAt),
    amount: toDecimalString(document.amountMinor, currency),
    amount_minor: document.amountMinor,
    currency,
    tax_label: tax?.label ?? null,
    tax_rate_percent: tax === null ? null : tax.rateBp / 100,
    tax: tax === null ? null : toDecimalString(tax.includedMinor, currency),
    tax_minor: tax?.includedMinor ?? null,
    url: links?.html ?? null,
    pdf_url: links?.pdf ?? null,
    pdf_file: pdfFile,
  };
}
