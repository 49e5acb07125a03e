import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { customers, plans } from "./catalog.js";
import {
  amountMinor,
  bytea,
  createdAt,
  currency,
  isCurrencyCode,
  isSha256Hex,
  rowId,
  setTogether,
  timestamptz,
  updatedAt,
} from "./columns.js";
import {
  billingMode,
  collectionMethod,
  enrollmentStatus,
  language,
  subscriptionStatus,
  voidRefunded,
} from "./enums.js";

/**
 * A customer's subscription to a plan. Billing times come from the billing clock. Rules:
 * - only a live subscription (trialing, active, past_due) has a next_billing_at; every other
 *   status clears it, which takes the row out of the scheduler's partial index;
 * - once started (anything but pending_enrollment, or canceled before enrolling) it has an anchor;
 * - the current period is both bounds or neither, and ends after it starts;
 * - canceled, paused and trialing carry the time that explains them.
 * Rows are never deleted (events and charges point at them), so foreign keys restrict.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: rowId(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id),
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id),
    status: subscriptionStatus("status").notNull().default("pending_enrollment"),
    /** Units of the plan (seats): a period costs the plan's price model applied to it. */
    quantity: integer("quantity").notNull().default(1),
    /** IANA zone in which period boundaries are computed (a month ends at local midnight). */
    timezone: text("timezone").notNull().default("Asia/Qatar"),
    billingAnchor: timestamptz("billing_anchor"),
    currentPeriodStart: timestamptz("current_period_start"),
    currentPeriodEnd: timestamptz("current_period_end"),
    nextBillingAt: timestamptz("next_billing_at"),
    trialEnd: timestamptz("trial_end"),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    /** Owed to the customer (a downgrade's unused time), taken off the next charges first. */
    creditMinor: amountMinor("credit_minor").notNull().default(0),
    canceledAt: timestamptz("canceled_at"),
    pausedAt: timestamptz("paused_at"),
    endedReason: text("ended_reason"),
    /** Charged with the card below, or asked to pay each charge by payment link (payment-links/). */
    collectionMethod: collectionMethod("collection_method").notNull().default("charge_automatically"),
    /** The card charged from now on; older cards stay in payment_methods for history. */
    paymentMethodId: uuid("payment_method_id").references((): AnyPgColumn => paymentMethods.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("subscriptions_customer_idx").on(t.customerId),
    index("subscriptions_plan_idx").on(t.planId),
    // (next_billing_at, id): the due scan pages in this order, so a batch reads only its own rows;
    // plan_id lets the ops dashboard count renewals per plan from the index alone.
    index("subscriptions_due_idx")
      .on(t.nextBillingAt, t.id, t.planId)
      .where(sql`${t.status} in ('trialing', 'active', 'past_due') and ${t.nextBillingAt} is not null`),
    // The card-stop sweep starts from canceled subscriptions (scheduler/dispatch-token-deactivations.ts).
    index("subscriptions_canceled_idx").on(t.id).where(sql`${t.status} = 'canceled'`),
    // Collection resuming on a new card starts from subscriptions in debt (dispatch-resumed-charges.ts).
    index("subscriptions_in_debt_idx").on(t.id).where(sql`${t.status} in ('past_due', 'unpaid')`),
    // The ops dashboard (ops/): counts and MRR by status and plan, read index-only, and churn.
    index("subscriptions_status_plan_idx").on(t.status, t.planId),
    index("subscriptions_canceled_at_idx").on(t.canceledAt).where(sql`${t.canceledAt} is not null`),
    // The live subscriptions of a card (cards expiring soon, on the ops dashboard).
    index("subscriptions_live_payment_method_idx")
      .on(t.paymentMethodId)
      .where(sql`${t.status} in ('trialing', 'active', 'past_due')`),
    check("subscriptions_credit_non_negative", sql`${t.creditMinor} >= 0`),
    check("subscriptions_quantity_range", sql`${t.quantity} between 1 and 1000000`),
    check("subscriptions_timezone_present", sql`btrim(${t.timezone}) <> ''`),
    check(
      "subscriptions_billing_only_when_live",
      sql`${t.nextBillingAt} is null or ${t.status} in ('trialing', 'active', 'past_due')`,
    ),
    check(
      "subscriptions_started_has_anchor",
      sql`${t.billingAnchor} is not null or ${t.status} in ('pending_enrollment', 'canceled')`,
    ),
    check("subscriptions_period_both_bounds", setTogether(t.currentPeriodStart, t.currentPeriodEnd)),
    check("subscriptions_period_order", sql`${t.currentPeriodEnd} > ${t.currentPeriodStart}`),
    check("subscriptions_canceled_has_time", sql`${t.status} <> 'canceled' or ${t.canceledAt} is not null`),
    check("subscriptions_paused_has_time", sql`${t.status} <> 'paused' or ${t.pausedAt} is not null`),
    check("subscriptions_trialing_has_end", sql`${t.status} <> 'trialing' or ${t.trialEnd} is not null`),
  ],
);

/**
 * A saved card token. The token itself is only ever stored sealed by the token vault
 * (AES-256-GCM; key id beside it), so a raw SELECT shows ciphertext, never the token. The
 * fingerprint (HMAC of the token) is unique: saving the same token twice, e.g. when the success
 * redirect is replayed, hits the unique index instead of creating a second card.
 * - recurring tokens are bound to the enrollment amount, so they carry it; autosave tokens may;
 * - deactivated_at: we stopped the token (StopRecurring, replaced by a new card);
 *   unusable_at: the gateway refused it (expired, unknown to it). Each comes with its reason.
 */
export const paymentMethods = pgTable(
  "payment_methods",
  {
    id: rowId(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id),
    /** The enrollment whose successful checkout issued this token; one token per enrollment. */
    enrollmentId: uuid("enrollment_id")
      .unique("payment_methods_enrollment_key")
      .references(() => enrollments.id),
    kind: billingMode("kind").notNull(),
    tokenCiphertext: bytea("token_ciphertext").notNull(),
    tokenNonce: bytea("token_nonce").notNull(),
    tokenTag: bytea("token_tag").notNull(),
    tokenKeyId: text("token_key_id").notNull(),
    tokenFingerprint: text("token_fingerprint").notNull().unique("payment_methods_token_fingerprint_key"),
    cardLast4: text("card_last4"),
    /** "MM/YY" as the card shows it. */
    cardExpiryMonth: text("card_expiry_month"),
    amountMinor: amountMinor(),
    currency: currency(),
    issuedAt: timestamptz("issued_at").notNull(),
    /** Six months after issue or the card's expiry, whichever is first. */
    expiresAt: timestamptz("expires_at").notNull(),
    deactivatedAt: timestamptz("deactivated_at"),
    deactivationReason: text("deactivation_reason"),
    unusableAt: timestamptz("unusable_at"),
    unusableReason: text("unusable_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    index("payment_methods_customer_idx").on(t.customerId),
    index("payment_methods_subscription_idx").on(t.subscriptionId),
    // Cards expiring soon, on the ops dashboard.
    index("payment_methods_expires_idx")
      .on(t.expiresAt)
      .where(sql`${t.deactivatedAt} is null and ${t.unusableAt} is null`),
    check("payment_methods_token_sealed", sql`octet_length(${t.tokenCiphertext}) > 0`),
    check("payment_methods_token_nonce_length", sql`octet_length(${t.tokenNonce}) = 12`),
    check("payment_methods_token_tag_length", sql`octet_length(${t.tokenTag}) = 16`),
    check("payment_methods_token_key_id_present", sql`${t.tokenKeyId} <> ''`),
    check("payment_methods_token_fingerprint_hex", isSha256Hex(t.tokenFingerprint)),
    check("payment_methods_card_last4_digits", sql`${t.cardLast4} ~ '^[0-9]{4}$'`),
    check("payment_methods_card_expiry_shape", sql`${t.cardExpiryMonth} ~ '^(0[1-9]|1[0-2])/[0-9]{2}$'`),
    check("payment_methods_amount_positive", sql`${t.amountMinor} > 0`),
    check("payment_methods_amount_with_currency", setTogether(t.amountMinor, t.currency)),
    check("payment_methods_currency_code", isCurrencyCode(t.currency)),
    check(
      "payment_methods_recurring_has_amount",
      sql`${t.kind} <> 'recurring' or ${t.amountMinor} is not null`,
    ),
    check("payment_methods_expiry_after_issue", sql`${t.expiresAt} > ${t.issuedAt}`),
    check("payment_methods_deactivation_reason", setTogether(t.deactivatedAt, t.deactivationReason)),
    check("payment_methods_unusable_reason", setTogether(t.unusableAt, t.unusableReason)),
  ],
);

/**
 * One hosted checkout that saves a card. Its id is the gateway orderId. A subscription enrolls
 * again for a new card, so there may be many per subscription, but:
 * - at most one is pending at a time (expire the open one before starting another);
 * - a gateway transaction completes at most one enrollment;
 * - completed_at is set exactly when the status is completed;
 * - the isVoid outcome (refunded=yes|no) exists only on a completed enrollment.
 */
export const enrollments = pgTable(
  "enrollments",
  {
    id: rowId(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    kind: billingMode("kind").notNull(),
    status: enrollmentStatus("status").notNull().default("pending"),
    amountMinor: amountMinor().notNull(),
    currency: currency().notNull(),
    language: language("language").notNull().default("en"),
    checkoutUrl: text("checkout_url"),
    /** Where the result page sends the customer back to (the customer portal), when anywhere. */
    returnUrl: text("return_url"),
    gatewayTransactionId: text("gateway_transaction_id").unique("enrollments_gateway_transaction_key"),
    failureDescription: text("failure_description"),
    voidRefunded: voidRefunded("void_refunded"),
    voidRefundTransactionId: text("void_refund_transaction_id"),
    voidRefundDescription: text("void_refund_description"),
    /** Set when an operator must look (e.g. the isVoid return of money failed); says why. */
    operatorAttention: text("operator_attention"),
    createdAt: createdAt(),
    completedAt: timestamptz("completed_at"),
  },
  (t) => [
    index("enrollments_subscription_idx").on(t.subscriptionId),
    index("enrollments_attention_idx").on(t.createdAt).where(sql`${t.operatorAttention} is not null`),
    uniqueIndex("enrollments_one_pending_per_subscription")
      .on(t.subscriptionId)
      .where(sql`${t.status} = 'pending'`),
    check("enrollments_amount_positive", sql`${t.amountMinor} > 0`),
    check("enrollments_currency_code", isCurrencyCode(t.currency)),
    check(
      "enrollments_completed_has_time",
      sql`(${t.status} = 'completed') = (${t.completedAt} is not null)`,
    ),
    check(
      "enrollments_void_outcome_on_completed",
      sql`${t.voidRefunded} is null or ${t.status} = 'completed'`,
    ),
  ],
);
