import type { StoredCoupon } from "../coupons/index.js";
import type { DocumentLinks, IssuedDocument } from "../customer-documents/index.js";
import type { Customer } from "../customers/index.js";
import { toDecimalString } from "../money/index.js";
import type { StoredPlan } from "../plans/index.js";
import type { RefundRow } from "../refunds/index.js";

/**
 * The JSON shapes the CLI prints of rows the merchant API presents in src/api: snake_case and ISO
 * timestamps like the API, amounts as the currency's decimal string with the minor units beside it.
 * Charges and subscriptions are not here: the CLI prints them with the API's own presenters
 * (src/resources).
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
