import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { customers, plans } from "./catalog.js";
import {
  amountMinor,
  createdAt,
  currency,
  isCurrencyCode,
  isSha256Hex,
  rowId,
  timestamptz,
} from "./columns.js";
import { couponDuration, discountType, planChangeStatus, prorationBehavior } from "./enums.js";
import { subscriptions } from "./subscriptions.js";

/**
 * A discount a merchant hands out by code. Rules:
 * - the code is stored upper-case and trimmed, unique, so lookups are exact;
 * - a percentage coupon has a percent (1-99, as the gateway's invoice setting allows) and no money;
 *   a fixed one has an amount and its currency and no percent;
 * - `repeating` names how many periods; `once` and `forever` do not;
 * - redemptions never pass max_redemptions (counted under a row lock when redeemed).
 */
export const coupons = pgTable(
  "coupons",
  {
    id: rowId(),
    code: text("code").notNull().unique("coupons_code_key"),
    name: text("name"),
    discountType: discountType("discount_type").notNull(),
    percentOff: integer("percent_off"),
    amountOffMinor: amountMinor("amount_off_minor"),
    currency: currency(),
    duration: couponDuration("duration").notNull(),
    durationPeriods: integer("duration_periods"),
    maxRedemptions: integer("max_redemptions"),
    redemptions: integer("redemptions").notNull().default(0),
    /** On the billing clock: no redemption at or after it. */
    expiresAt: timestamptz("expires_at"),
    archivedAt: timestamptz("archived_at"),
    createdAt: createdAt(),
  },
  (t) => [
    check("coupons_code_shape", sql`${t.code} ~ '^[A-Z0-9][A-Z0-9_-]{0,63}$'`),
    check(
      "coupons_percentage_shape",
      sql`${t.discountType} <> 'percentage' or (${t.percentOff} between 1 and 99 and ${t.amountOffMinor} is null and ${t.currency} is null)`,
    ),
    check(
      "coupons_fixed_shape",
      sql`${t.discountType} <> 'fixed' or (${t.amountOffMinor} > 0 and ${t.currency} is not null and ${t.percentOff} is null)`,
    ),
    check("coupons_currency_code", isCurrencyCode(t.currency)),
    check(
      "coupons_duration_periods",
      sql`(${t.duration} = 'repeating') = (${t.durationPeriods} is not null) and coalesce(${t.durationPeriods}, 1) between 1 and 1200`,
    ),
    check("coupons_max_redemptions_positive", sql`${t.maxRedemptions} is null or ${t.maxRedemptions} >= 1`),
    check(
      "coupons_redemptions_within_limit",
      sql`${t.redemptions} >= 0 and (${t.maxRedemptions} is null or ${t.redemptions} <= ${t.maxRedemptions})`,
    ),
  ],
);

/**
 * A coupon redeemed on a subscription. At most one is live (ended_at null) per subscription; the
 * scheduler counts the periods it discounted and ends a once/repeating discount after its last one.
 */
export const subscriptionDiscounts = pgTable(
  "subscription_discounts",
  {
    id: rowId(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    couponId: uuid("coupon_id")
      .notNull()
      .references(() => coupons.id),
    /** Billing clock. */
    appliedAt: timestamptz("applied_at").notNull(),
    periodsApplied: integer("periods_applied").notNull().default(0),
    endedAt: timestamptz("ended_at"),
    actor: text("actor").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("subscription_discounts_one_live").on(t.subscriptionId).where(sql`${t.endedAt} is null`),
    index("subscription_discounts_coupon_idx").on(t.couponId),
    check("subscription_discounts_periods_non_negative", sql`${t.periodsApplied} >= 0`),
  ],
);

/**
 * A change of a subscription's plan, its quantity (seats), or both. Rules:
 * - at most one is scheduled per subscription (a new request replaces it, canceling the old one);
 * - an applied change is final and carries what it credited and charged, in minor units of the
 *   plans' shared currency (a change across currencies is refused before anything is written);
 * - effective_at is on the billing clock: now for immediate changes, the period end when scheduled.
 */
export const planChanges = pgTable(
  "plan_changes",
  {
    id: rowId(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    fromPlanId: uuid("from_plan_id")
      .notNull()
      .references(() => plans.id),
    toPlanId: uuid("to_plan_id")
      .notNull()
      .references(() => plans.id),
    fromQuantity: integer("from_quantity").notNull().default(1),
    toQuantity: integer("to_quantity").notNull().default(1),
    proration: prorationBehavior("proration").notNull(),
    status: planChangeStatus("status").notNull(),
    effectiveAt: timestamptz("effective_at").notNull(),
    currency: currency().notNull(),
    /** For the unused part of the old plan's period (immediate_prorate only). */
    creditMinor: amountMinor("credit_minor").notNull().default(0),
    /** For the new plan's remainder of the period, or its whole first period when re-anchored. */
    debitMinor: amountMinor("debit_minor").notNull().default(0),
    actor: text("actor").notNull(),
    reason: text("reason"),
    createdAt: createdAt(),
    appliedAt: timestamptz("applied_at"),
    canceledAt: timestamptz("canceled_at"),
  },
  (t) => [
    uniqueIndex("plan_changes_one_scheduled").on(t.subscriptionId).where(sql`${t.status} = 'scheduled'`),
    index("plan_changes_subscription_idx").on(t.subscriptionId, t.createdAt),
    check("plan_changes_currency_code", isCurrencyCode(t.currency)),
    check("plan_changes_amounts_non_negative", sql`${t.creditMinor} >= 0 and ${t.debitMinor} >= 0`),
    check(
      "plan_changes_different_plan",
      sql`${t.fromPlanId} <> ${t.toPlanId} or ${t.fromQuantity} <> ${t.toQuantity}`,
    ),
    check(
      "plan_changes_quantities_range",
      sql`${t.fromQuantity} between 1 and 1000000 and ${t.toQuantity} between 1 and 1000000`,
    ),
    check("plan_changes_applied_has_time", sql`(${t.status} = 'applied') = (${t.appliedAt} is not null)`),
    check("plan_changes_canceled_has_time", sql`(${t.status} = 'canceled') = (${t.canceledAt} is not null)`),
  ],
);

/**
 * A magic link into the customer portal: only the SHA-256 of its secret is kept. It opens once
 * (used_at) before it expires, and opening it starts a portal session.
 */
export const portalLinks = pgTable(
  "portal_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (t) => [
    check("portal_links_token_hash_hex", isSha256Hex(t.tokenHash)),
    check("portal_links_expiry_after_creation", sql`${t.expiresAt} > ${t.createdAt}`),
  ],
);

/** A customer's browser session in the portal (cookie secret hashed, CSRF token for its forms). */
export const portalSessions = pgTable(
  "portal_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id),
    csrfToken: text("csrf_token").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [
    check("portal_sessions_token_hash_hex", isSha256Hex(t.tokenHash)),
    check("portal_sessions_csrf_present", sql`length(${t.csrfToken}) >= 32`),
    check("portal_sessions_expiry_after_creation", sql`${t.expiresAt} > ${t.createdAt}`),
  ],
);
