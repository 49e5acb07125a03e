import { pgEnum } from "drizzle-orm/pg-core";
import { BREAKER_SIGNALS } from "../../billing/breaker.js";
import { CHARGE_KINDS, CHARGE_LINE_KINDS } from "../../billing/charge-lines.js";
import { ATTEMPT_STATES, CHARGE_STATES } from "../../billing/charge-states.js";
import { MESSAGE_KINDS, MESSAGE_STATUSES } from "../../billing/customer-messages.js";
import { SUBSCRIPTION_STATES } from "../../billing/subscription-states.js";

/**
 * Every state machine of the engine as a Postgres enum, so a row can never hold a state the code
 * does not know. The subscription, charge and attempt states come from the domain's own tables
 * (src/billing), so the two cannot drift apart. Adding a value is a migration; removing one is not supported by Postgres.
 */

export const intervalUnit = pgEnum("interval_unit", ["day", "week", "month", "year"]);

/**
 * How a plan collects with a saved card, and the kind of card token that results:
 * `recurring` tokens charge the enrollment amount (GetnewPayment needs no amount);
 * `autosave` tokens are charged any amount with a fresh orderId per payment.
 */
export const billingMode = pgEnum("billing_mode", ["recurring", "autosave"]);
/** How a plan's price grows with the quantity (billing/price-models.ts). */
export const priceModel = pgEnum("price_model", ["flat", "per_unit", "tiered", "volume", "package"]);
/** A feature a plan gives: a switch, or a limit with a number (entitlements/). */
export const featureKind = pgEnum("feature_kind", ["boolean", "limit"]);
/** What a line of a charge bills (billing/charge-lines.ts). */
export const chargeLineKind = pgEnum("charge_line_kind", CHARGE_LINE_KINDS);
/** When a one-off charge is collected: as a charge of its own now, or on the next period's charge. */
export const oneOffCollect = pgEnum("one_off_collect", ["now", "next_bill"]);

/**
 * How a subscription pays each period: `charge_automatically` with its saved card token
 * (GetnewPayment), or `send_payment_link`: the customer gets a link to a hosted checkout for the
 * charge's exact amount, which any card the gateway accepts can pay (payment-links/).
 */
export const collectionMethod = pgEnum("collection_method", ["charge_automatically", "send_payment_link"]);

/**
 * How an attempt asks the gateway for money: GetnewPayment on a saved `card_token`, or a hosted
 * `checkout` the customer pays through a payment link.
 */
export const attemptChannel = pgEnum("attempt_channel", ["card_token", "checkout"]);

/** Language of the hosted checkout page and of customer-facing documents. */
export const language = pgEnum("language", ["en", "ar"]);

export const subscriptionStatus = pgEnum("subscription_status", SUBSCRIPTION_STATES);

export const enrollmentStatus = pgEnum("enrollment_status", ["pending", "completed", "failed", "expired"]);

/** Outcome of the gateway's automatic return of money on an isVoid enrollment (`refunded=yes|no`). */
export const voidRefunded = pgEnum("void_refunded", ["yes", "no"]);

export const chargeStatus = pgEnum("charge_status", CHARGE_STATES);

export const chargeAttemptStatus = pgEnum("charge_attempt_status", ATTEMPT_STATES);

export const invoiceStatus = pgEnum("invoice_status", ["pending", "created", "failed"]);

/** v1 is POST /v1/payments/refund; legacy is /v3/Refund. */
export const refundChannel = pgEnum("refund_channel", ["v1", "legacy"]);

/**
 * Why money is returned: `requested` by the merchant (API, CLI), or `duplicate` when a payment the
 * gateway applied late paid a period that another attempt had already paid (late-payments/).
 */
export const refundReason = pgEnum("refund_reason", ["requested", "duplicate"]);

export const refundStatus = pgEnum("refund_status", [
  "requested",
  "completed",
  "under_processing",
  "failed",
  "unknown",
]);

export const webhookDeliveryStatus = pgEnum("webhook_delivery_status", ["pending", "delivered", "failed"]);

/** What made the gateway circuit breaker count a failure as systemic (billing/breaker.ts). */
export const breakerSignal = pgEnum("breaker_signal", BREAKER_SIGNALS);

/** What an API key may do: everything, only read (GET), or read and the operations it names. */
export const apiKeyScope = pgEnum("api_key_scope", ["full", "read_only", "restricted"]);

/** Why a charge exists: a billing `period`, or the immediate difference of a plan `change`. */
export const chargeKind = pgEnum("charge_kind", CHARGE_KINDS);

/** How a plan change is billed (billing/proration.ts). */
export const prorationBehavior = pgEnum("proration_behavior", ["immediate_prorate", "at_period_end", "none"]);

export const planChangeStatus = pgEnum("plan_change_status", ["scheduled", "applied", "canceled"]);

/** A coupon takes a share of the price (`percentage`, 1-99) or an amount of money (`fixed`). */
export const discountType = pgEnum("discount_type", ["percentage", "fixed"]);

/** How many periods a coupon discounts: the first one, N of them, or every one. */
export const couponDuration = pgEnum("coupon_duration", ["once", "repeating", "forever"]);

/** What a customer message says, and how far it got (billing/customer-messages.ts). */
export const messageKind = pgEnum("message_kind", MESSAGE_KINDS);

export const messageStatus = pgEnum("message_status", MESSAGE_STATUSES);
