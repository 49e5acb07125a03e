import { eq } from "drizzle-orm";
import { z } from "zod";
import { COLLECTION_METHODS, MAX_QUANTITY } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { lockRedeemableCoupon, redeemCoupon } from "../coupons/index.js";
import { customers, plans, subscriptions } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { startSubscription } from "./complete-enrollment.js";
import { DuplicateSubscriptionError, EnrollmentError } from "./errors.js";
import { ENROLLMENT_EVENTS } from "./events.js";
import { insertEnrollment } from "./new-enrollment.js";
import { openCheckout } from "./open-checkout.js";
import { findOpenSubscription } from "./open-subscription.js";
import { assertPlanTakesSubscriptions } from "./plan-takes-subscriptions.js";

export type EnrollContext = Pick<EngineContext, "db" | "clock" | "gateway" | "logger" | "config">;

const enrollInput = z.object({
  customerId: z.uuid({ error: "customerId must be a customer id (uuid)" }),
  planId: z.uuid({ error: "planId must be a plan id (uuid)" }),
  actor: z.string({ error: "actor must be a string" }).trim().min(1, { error: "actor must not be empty" }),
  /** Make a second subscription although the customer has one to the plan that is not canceled. */
  allowDuplicate: z.boolean({ error: "allowDuplicate must be true or false" }).default(false),
  /** A coupon code to redeem on the new subscription. */
  coupon: z.string({ error: "coupon must be a coupon code" }).trim().min(1).optional(),
  /** Units of the plan (seats); the period's price is the plan's price model at this quantity. */
  quantity: z
    .number({ error: "quantity must be a number" })
    .int({ error: "quantity must be a whole number" })
    .min(1, { error: "quantity must be at least 1" })
    .max(MAX_QUANTITY, { error: `quantity must be at most ${MAX_QUANTITY}` })
    .default(1),
  /** How the subscription pays; default the plan's (a plan with a cardless trial: by link). */
  collectionMethod: z
    .enum(COLLECTION_METHODS, { error: `collectionMethod must be one of ${COLLECTION_METHODS.join(", ")}` })
    .optional(),
});

export type EnrollInput = z.input<typeof enrollInput>;

export interface EnrollResult {
  subscriptionId: string;
  collectionMethod: "charge_automatically";
  enrollmentId: string;
  /** Where to send the customer to enter the card. */
  checkoutUrl: string;
}

/** A subscription that pays by link started at once: no card, no checkout. */
export interface LinkSubscribeResult {
  subscriptionId: string;
  collectionMethod: "send_payment_link";
  enrollmentId: null;
  checkoutUrl: null;
}

export type SubscribeResult = EnrollResult | LinkSubscribeResult;

/** subscribe() for a caller that expects a card checkout (the plan collects by card). */
export async function enroll(ctx: EnrollContext, input: EnrollInput): Promise<EnrollResult> {
  const result = await subscribe(ctx, input);
  if (result.checkoutUrl === null) {
    throw new EnrollmentError(
      "invalid_input",
      `subscription ${result.subscriptionId} pays by payment link and asks for no card`,
    );
  }
  return result;
}

/**
 * Subscribes a customer to a plan: a pending_enrollment subscription and its pending enrollment
 * (one transaction, with events), then the gateway checkout that saves the card. The subscription
 * starts when the gateway confirms the payment (applyGatewayCallback).
 *
 * A subscription that pays by link (collectionMethod send_payment_link, or the plan's default, or a
 * plan whose trial needs no card) asks for no card: it starts at once, trialing or active, and each
 * charge goes out as a payment link (payment-links/). A card added later turns it to
 * charge_automatically.
 *
 * Refused with EnrollmentError before anything is written: an unknown customer or plan, an
 * archived plan or one in a currency the gateway account does not take, and (unless
 * allowDuplicate) a customer who already has a subscription to the plan that is not canceled
 * (DuplicateSubscriptionError, naming it). A coupon is checked there too (CouponError: unknown,
 * refused by its rules, or a plan that charges a recurring token, which takes no discounted amount)
 * and redeemed in the transaction that creates the subscription, so a refusal leaves nothing.
 *
 * The rows are committed before AddTransaction is called, as every gateway call is recorded
 * first: the enrollment id is the checkout's orderId, so callbacks and the sweep can find it
 * whatever happens to the reply. When no checkout URL comes back (EnrollmentCheckoutError), what
 * is left depends on what the gateway is known to have done, so the caller never holds a
 * subscription that looks open but cannot be paid:
 * - it answered with a refusal (or was never reached): no checkout exists, so nothing can be paid.
 *   The enrollment is failed and the new subscription canceled, both with their events (history
 *   is append-only, so this is how it is undone); subscribing again starts afresh.
 * - no answer after the request went out: a checkout may exist at the gateway, so the enrollment
 *   stays pending for the sweep to settle from CheckStatus, and the subscription stays
 *   pending_enrollment; startReEnrollment(subscriptionId) gives a new checkout.
 */
export async function subscribe(ctx: EnrollContext, input: EnrollInput): Promise<SubscribeResult> {
  const parsed = enrollInput.safeParse(input);
  if (!parsed.success) {
    throw new EnrollmentError("invalid_input", parsed.error.issues.map((issue) => issue.message).join("; "));
  }
  const { customerId, planId, actor, allowDuplicate, coupon: code, collectionMethod, quantity } = parsed.data;
  const now = ctx.clock.now();
  const { customer, enrollment, subscriptionId } = await ctx.db.transaction(async (tx) => {
    // Locked so that two enrolments of one customer at once cannot both find no subscription.
    const [customer] = await tx
      .select()
      .from(customers)
      .where(eq(customers.id, customerId))
      .for("no key update");
    if (!customer) throw new EnrollmentError("customer_not_found", `no customer ${customerId}`);
    // Shared lock: the plan cannot be archived between this check and the commit.
    const [plan] = await tx.select().from(plans).where(eq(plans.id, planId)).for("share");
    if (!plan) throw new EnrollmentError("plan_not_found", `no plan ${planId}`);
    assertPlanTakesSubscriptions(plan, ctx.config.GATEWAY_CURRENCIES);
    if (!allowDuplicate) {
      const existing = await findOpenSubscription(tx, customerId, planId);
      if (existing) throw new DuplicateSubscriptionError(existing.id, existing.status, customerId, planId);
    }
    const method = collectionMethod ?? (plan.trialWithoutCard ? "send_payment_link" : plan.collectionMethod);
    const byLink = method === "send_payment_link";
    // By link no token fixes the amount, so a coupon is taken as on an autosave plan.
    const billingMode = byLink ? "autosave" : plan.billingMode;
    const target = { planId, currency: plan.currency, billingMode, cardKind: null };
    const coupon = code ? await lockRedeemableCoupon(tx, code, target, now) : null;

    const [subscription] = await tx
      .insert(subscriptions)
      .values({
        customerId,
        planId,
        quantity,
        status: "pending_enrollment",
        timezone: ctx.config.BILLING_TIMEZONE,
        collectionMethod: method,
      })
      .returning();
    if (!subscription) throw new Error("subscription was not stored");
    await recordEvent(tx, {
      type: ENROLLMENT_EVENTS.subscriptionCreated,
      actor,
      occurredAt: now,
      subscriptionId: subscription.id,
      customerId,
      data: { plan_id: planId, quantity, status: subscription.status, collection_method: method },
    });
    if (coupon) await redeemCoupon(tx, { coupon, subscription, actor, now });
    if (byLink) {
      const common = { actor, occurredAt: now, subscriptionId: subscription.id, customerId };
      await startSubscription(tx, subscription, null, common);
      return { customer, enrollment: null, subscriptionId: subscription.id };
    }
    const enrollment = await insertEnrollment(tx, {
      subscription,
      plan,
      customer,
      actor,
      now,
      reason: "enroll",
    });
    return { customer, enrollment, subscriptionId: subscription.id };
  });
  if (enrollment === null) {
    return { subscriptionId, collectionMethod: "send_payment_link", enrollmentId: null, checkoutUrl: null };
  }
  const checkoutUrl = await openCheckout(ctx, enrollment, customer, actor, { newSubscription: true });
  return {
    subscriptionId,
    collectionMethod: "charge_automatically",
    enrollmentId: enrollment.id,
    checkoutUrl,
  };
}
