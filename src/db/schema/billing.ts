import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { plans } from "./catalog.js";
import { coupons, planChanges } from "./changes.js";
import {
  amountMinor,
  createdAt,
  currency,
  isCurrencyCode,
  rowId,
  timestamptz,
  updatedAt,
} from "./columns.js";
import {
  attemptChannel,
  chargeAttemptStatus,
  chargeKind,
  chargeStatus,
  invoiceStatus,
  refundChannel,
  refundReason,
  refundStatus,
} from "./enums.js";
import { subscriptions } from "./subscriptions.js";

/**
 * What a subscription owes for one period, or for a plan change's difference. Rules:
 * - one period charge per subscription and period (unique on period_start), so a scheduler that
 *   runs twice, or two schedulers at once, cannot bill a period twice: insert … on conflict do
 *   nothing; a plan_change charge belongs to its plan change alone (unique plan_change_id);
 * - a usage charge is unique per subscription and period too (charges_usage_period_key), so the
 *   usage of a period is billed once (scheduler/bill-usage.ts); the parts billed before it closed
 *   (progressive billing, usage_part 1, 2, …) are unique per number (charges_usage_part_key). Its predicate calls
 *   charge_kind_is_usage(kind) (migration 0017) rather than naming 'usage': PostgreSQL refuses a
 *   value added to an enum in the transaction that added it, and migrations run in one transaction;
 * - plan_id names the plan the charge bills, as it was when the charge was created (a plan change's
 *   charge, its new plan), so an invoice or a receipt for it names that plan after a later change;
 * - amount = price − discount − credit, never negative; an amount of zero is paid without the
 *   gateway when it is created (no attempt, no transaction), anything else is collected;
 * - only a charge waiting for an attempt (scheduled, retrying) has a next_attempt_at; every other
 *   status clears it, which takes the row out of the dispatcher's partial index;
 * - a paid charge names the gateway transaction that paid it, and a transaction pays one charge;
 * - dispatched_at (Postgres's real time, not the billing clock) says when the scheduler last handed
 *   the charge to the queue, so the next tick leaves it alone until that dispatch is overdue or its
 *   job is lost; claiming an attempt clears it, so the charge's next attempt is dispatched afresh.
 */
export const charges = pgTable(
  "charges",
  {
    id: rowId(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    periodStart: timestamptz("period_start").notNull(),
    periodEnd: timestamptz("period_end").notNull(),
    amountMinor: amountMinor().notNull(),
    currency: currency().notNull(),
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id),
    kind: chargeKind("kind").notNull().default("period"),
    /** The plan's units this charge bills (the subscription's quantity when it was created). */
    quantity: integer("quantity").notNull().default(1),
    /** A usage charge billed before its period closed (progressive billing): 1, 2, … per period. */
    usagePart: integer("usage_part"),
    planChangeId: uuid("plan_change_id").references(() => planChanges.id),
    /** Taken off the price by a coupon; with its percent when the coupon is a percentage. */
    discountMinor: amountMinor("discount_minor").notNull().default(0),
    discountPercent: integer("discount_percent"),
    couponId: uuid("coupon_id").references(() => coupons.id),
    /** Taken off the price from the subscription's credit (a downgrade's unused time). */
    creditMinor: amountMinor("credit_minor").notNull().default(0),
    status: chargeStatus("status").notNull().default("scheduled"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at"),
    dispatchedAt: timestamptz("dispatched_at"),
    firstFailedAt: timestamptz("first_failed_at"),
    lastDeclineCode: text("last_decline_code"),
    lastDeclineDescription: text("last_decline_description"),
    paidAt: timestamptz("paid_at"),
    paidTransactionId: text("paid_transaction_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("charges_subscription_period_key")
      .on(t.subscriptionId, t.periodStart)
      .where(sql`${t.kind} = 'period'`),
    uniqueIndex("charges_usage_period_key")
      .on(t.subscriptionId, t.periodStart)
      .where(sql`charge_kind_is_usage(${t.kind}) and ${t.usagePart} is null`),
    uniqueIndex("charges_usage_part_key")
      .on(t.subscriptionId, t.periodStart, t.usagePart)
      .where(sql`${t.usagePart} is not null`),
    index("charges_subscription_idx").on(t.subscriptionId),
    // Unique where set: partial, because most charges never have one, and every version of a
    // charge (created, claimed, settled) would otherwise add a NULL entry to each index.
    uniqueIndex("charges_plan_change_key").on(t.planChangeId).where(sql`${t.planChangeId} is not null`),
    uniqueIndex("charges_paid_transaction_key")
      .on(t.paidTransactionId)
      .where(sql`${t.paidTransactionId} is not null`),
    index("charges_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('scheduled', 'retrying') and ${t.nextAttemptAt} is not null`),
    // The dispatcher's two scans: due and never handed out, and handed out too long ago.
    index("charges_undispatched_idx")
      .on(t.nextAttemptAt, t.id)
      .where(
        sql`${t.status} in ('scheduled', 'retrying') and ${t.nextAttemptAt} is not null and ${t.dispatchedAt} is null`,
      ),
    index("charges_uncollectible_idx").on(t.id).where(sql`${t.status} = 'uncollectible'`),
    // The ops dashboard (ops/): collections and recoveries by time, read index-only (the trailing
    // key columns are all the aggregates need), and the charges held for a person.
    index("charges_paid_at_idx")
      .on(t.paidAt, t.currency, t.amountMinor, t.attemptCount)
      .where(sql`${t.status} = 'paid'`),
    // Usage revenue (ops/usage-revenue.ts): paid usage charges by time, index-only and small.
    index("charges_usage_paid_at_idx")
      .on(t.paidAt, t.currency, t.amountMinor)
      .where(sql`${t.status} = 'paid' and charge_kind_is_usage(${t.kind})`),
    index("charges_first_failed_idx")
      .on(t.firstFailedAt, t.status, t.attemptCount, t.currency, t.amountMinor)
      .where(sql`${t.firstFailedAt} is not null`),
    index("charges_needs_review_idx").on(t.updatedAt).where(sql`${t.status} = 'needs_review'`),
    index("charges_uncollectible_recent_idx").on(t.updatedAt).where(sql`${t.status} = 'uncollectible'`),
    index("charges_dispatched_idx")
      .on(t.dispatchedAt)
      .where(sql`${t.status} in ('scheduled', 'retrying') and ${t.dispatchedAt} is not null`),
    check("charges_period_order", sql`${t.periodEnd} > ${t.periodStart}`),
    check(
      "charges_amount_positive",
      sql`${t.amountMinor} > 0 or (${t.amountMinor} = 0 and ${t.status} = 'paid' and ${t.attemptCount} = 0)`,
    ),
    check("charges_adjustments_non_negative", sql`${t.discountMinor} >= 0 and ${t.creditMinor} >= 0`),
    check(
      "charges_discount_percent_range",
      sql`${t.discountPercent} is null or ${t.discountPercent} between 1 and 99`,
    ),
    check("charges_kind_plan_change", sql`(${t.kind} = 'plan_change') = (${t.planChangeId} is not null)`),
    check("charges_currency_code", isCurrencyCode(t.currency)),
    check(
      "charges_usage_part_is_usage",
      sql`${t.usagePart} is null or (${t.usagePart} >= 1 and charge_kind_is_usage(${t.kind}))`,
    ),
    check("charges_attempt_count_non_negative", sql`${t.attemptCount} >= 0`),
    check(
      "charges_due_only_when_waiting",
      sql`${t.nextAttemptAt} is null or ${t.status} in ('scheduled', 'retrying')`,
    ),
    check(
      "charges_paid_has_settlement",
      sql`${t.status} <> 'paid' or (${t.paidAt} is not null and (${t.paidTransactionId} is not null or ${t.amountMinor} = 0))`,
    ),
  ],
);

/**
 * One call to the gateway (GetnewPayment) for a charge. The row is written, and committed, with
 * status in_flight BEFORE the call, so a crash mid-call leaves evidence to reconcile by order_id.
 * - order_id is unique: one attempt per orderId, never reused for a retry;
 * - attempt numbers run 1, 2, … per charge without repeats;
 * - at most one attempt per charge is open (in_flight or unknown): a charge is never sent twice
 *   while the outcome of an earlier call is not known;
 * - open attempts are not settled; approved, declined and failed_permanently ones are, and an
 *   approved one names its gateway transaction (which belongs to that attempt alone);
 * - an attempt closed as "no money moved" because CheckStatus did not know its orderId stays watched
 *   (late_check_at, Postgres's clock) over a lookback window, since a gateway may apply a payment
 *   after we stopped waiting for it (late-payments/);
 * - duplicate_at marks an approved attempt whose period another attempt had already paid: its money
 *   is owed back, and the late-payments sweep refunds it until a refund is live.
 */
export const chargeAttempts = pgTable(
  "charge_attempts",
  {
    id: rowId(),
    chargeId: uuid("charge_id")
      .notNull()
      .references(() => charges.id),
    orderId: text("order_id").notNull().unique("charge_attempts_order_id_key"),
    attemptNumber: integer("attempt_number").notNull(),
    status: chargeAttemptStatus("status").notNull().default("in_flight"),
    /** GetnewPayment with the card token, or a hosted checkout opened from a payment link. */
    channel: attemptChannel("channel").notNull().default("card_token"),
    /** A checkout attempt's page, handed to the customer again while it can still be paid. */
    checkoutUrl: text("checkout_url"),
    /** The customer asked the checkout to save the card (v1 save_token) for automatic payments. */
    saveCard: boolean("save_card").notNull().default(false),
    gatewayTransactionId: text("gateway_transaction_id"),
    authCode: text("auth_code"),
    declineCode: text("decline_code"),
    declineDescription: text("decline_description"),
    reconcileTries: integer("reconcile_tries").notNull().default(0),
    lateCheckAt: timestamptz("late_check_at"),
    lateChecks: integer("late_checks").notNull().default(0),
    duplicateAt: timestamptz("duplicate_at"),
    createdAt: createdAt(),
    settledAt: timestamptz("settled_at"),
  },
  (t) => [
    unique("charge_attempts_charge_attempt_number_key").on(t.chargeId, t.attemptNumber),
    // Partial for the reason given on charges: an attempt is recorded before it has one.
    uniqueIndex("charge_attempts_gateway_transaction_key")
      .on(t.gatewayTransactionId)
      .where(sql`${t.gatewayTransactionId} is not null`),
    uniqueIndex("charge_attempts_one_open_per_charge")
      .on(t.chargeId)
      .where(sql`${t.status} in ('in_flight', 'unknown')`),
    check("charge_attempts_order_id_present", sql`${t.orderId} <> ''`),
    check("charge_attempts_transaction_id_present", sql`${t.gatewayTransactionId} <> ''`),
    check("charge_attempts_attempt_number_positive", sql`${t.attemptNumber} >= 1`),
    check("charge_attempts_reconcile_tries_non_negative", sql`${t.reconcileTries} >= 0`),
    index("charge_attempts_late_watch_idx")
      .on(t.lateCheckAt)
      .where(sql`${t.status} = 'failed_permanently' and ${t.lateCheckAt} is not null`),
    index("charge_attempts_duplicate_idx").on(t.duplicateAt).where(sql`${t.duplicateAt} is not null`),
    // The ops dashboard's declines and unknown outcomes by time (ops/).
    index("charge_attempts_settled_idx")
      .on(t.settledAt, t.status, t.chargeId)
      .where(sql`${t.settledAt} is not null and ${t.status} <> 'approved'`),
    index("charge_attempts_open_idx").on(t.createdAt).where(sql`${t.status} in ('unknown', 'needs_review')`),
    check(
      "charge_attempts_late_watch_closed",
      sql`${t.lateCheckAt} is null or ${t.status} = 'failed_permanently'`,
    ),
    check("charge_attempts_duplicate_approved", sql`${t.duplicateAt} is null or ${t.status} = 'approved'`),
    check(
      "charge_attempts_open_not_settled",
      sql`${t.status} not in ('in_flight', 'unknown') or ${t.settledAt} is null`,
    ),
    check(
      "charge_attempts_outcome_settled",
      sql`${t.status} not in ('approved', 'declined', 'failed_permanently') or ${t.settledAt} is not null`,
    ),
    check(
      "charge_attempts_checkout_url_on_checkout",
      sql`${t.checkoutUrl} is null or ${t.channel} = 'checkout'`,
    ),
    check("charge_attempts_save_card_on_checkout", sql`not ${t.saveCard} or ${t.channel} = 'checkout'`),
    check(
      "charge_attempts_approved_has_transaction",
      sql`${t.status} <> 'approved' or ${t.gatewayTransactionId} is not null`,
    ),
  ],
);

/**
 * The gateway invoice (POST /v1/invoices) for a paid charge. One charge never gets two invoices
 * (unique charge_id); creating it is retried from status pending, and a created invoice carries
 * the gateway's id. `number` is ours, sent as the invoice's unique identifier.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: rowId(),
    chargeId: uuid("charge_id")
      .notNull()
      .unique("invoices_charge_key")
      .references(() => charges.id),
    status: invoiceStatus("status").notNull().default("pending"),
    gatewayInvoiceId: integer("gateway_invoice_id").unique("invoices_gateway_invoice_key"),
    number: text("number").unique("invoices_number_key"),
    link: text("link"),
    amountMinor: amountMinor().notNull(),
    currency: currency().notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    createdAtGateway: timestamptz("created_at_gateway"),
  },
  (t) => [
    index("invoices_pending_idx").on(t.createdAt).where(sql`${t.status} = 'pending'`),
    index("invoices_failed_idx").on(t.createdAt).where(sql`${t.status} = 'failed'`),
    check("invoices_amount_positive", sql`${t.amountMinor} > 0`),
    check("invoices_currency_code", isCurrencyCode(t.currency)),
    check("invoices_attempts_non_negative", sql`${t.attempts} >= 0`),
    check(
      "invoices_created_has_gateway_id",
      sql`${t.status} <> 'created' or ${t.gatewayInvoiceId} is not null`,
    ),
  ],
);

/**
 * Money returned for a paid charge, through v1 (/v1/payments/refund) or legacy (/v3/Refund).
 * The gateway refunds a whole payment, so a payment (gateway transaction) has at most one refund that
 * is not failed: a failed refund may be tried again, but an open, unknown or completed one blocks a
 * second. A charge paid twice (a late duplicate) has two payments, each refundable once.
 * A refund is settled (the gateway answered) unless it is still requested or unknown.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: rowId(),
    chargeId: uuid("charge_id")
      .notNull()
      .references(() => charges.id),
    /** The approved attempt whose payment is returned, and its gateway transaction id. */
    chargeAttemptId: uuid("charge_attempt_id")
      .notNull()
      .references(() => chargeAttempts.id),
    refundedTransactionId: text("refunded_transaction_id").notNull(),
    amountMinor: amountMinor().notNull(),
    currency: currency().notNull(),
    channel: refundChannel("channel").notNull(),
    reason: refundReason("reason").notNull().default("requested"),
    status: refundStatus("status").notNull().default("requested"),
    gatewayRefundTransactionId: text("gateway_refund_transaction_id"),
    description: text("description"),
    /** Who asked: an actor as in events (e.g. "api:<key id>", "cli"). */
    requestedBy: text("requested_by").notNull(),
    createdAt: createdAt(),
    settledAt: timestamptz("settled_at"),
  },
  (t) => [
    index("refunds_charge_idx").on(t.chargeId),
    // The tick's sweep of refunds left open (scheduler/dispatch-refunds.ts), and its question.
    index("refunds_open_idx").on(t.createdAt, t.id).where(sql`${t.status} in ('requested', 'unknown')`),
    uniqueIndex("refunds_one_live_per_transaction")
      .on(t.refundedTransactionId)
      .where(sql`${t.status} <> 'failed'`),
    check("refunds_amount_positive", sql`${t.amountMinor} > 0`),
    check("refunds_currency_code", isCurrencyCode(t.currency)),
    check("refunds_requested_by_present", sql`${t.requestedBy} <> ''`),
    check(
      "refunds_settled_when_answered",
      sql`(${t.status} in ('requested', 'unknown')) = (${t.settledAt} is null)`,
    ),
  ],
);
