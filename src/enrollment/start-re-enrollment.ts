import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { customers, enrollments, plans, subscriptions } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { EnrollmentError } from "./errors.js";
import { ENROLLMENT_EVENTS } from "./events.js";
import { insertEnrollment } from "./new-enrollment.js";
import { openCheckout } from "./open-checkout.js";

export type ReEnrollmentContext = Pick<EngineContext, "db" | "clock" | "gateway" | "logger">;

const reEnrollmentInput = z.object({
  subscriptionId: z.uuid({ error: "subscriptionId must be a subscription id (uuid)" }),
  actor: z.string({ error: "actor must be a string" }).trim().min(1, { error: "actor must not be empty" }),
  /** Why a new card is asked for, recorded with the event; default "re_enrollment". */
  reason: z.string().trim().min(1).max(200).optional(),
  /** Our page the result page links back to (the customer portal started it). */
  returnUrl: z.url({ protocol: /^https?$/, error: "returnUrl must be an http(s) URL" }).optional(),
});

export type StartReEnrollmentInput = z.input<typeof reEnrollmentInput>;

export interface StartReEnrollmentResult {
  enrollmentId: string;
  /** Where to send the customer to enter the (new) card. */
  checkoutUrl: string;
}

/**
 * A fresh checkout that saves a card for an existing subscription: when its token became
 * unusable, dunning ended unpaid, the customer changes card, or a first checkout could not be
 * created. A pending enrollment of the subscription is expired and replaced (its checkout, if
 * paid anyway, is still honoured). When the new card is confirmed, a started subscription switches
 * to it (see applyGatewayCallback) and a pending_enrollment one starts.
 *
 * The subscription row is locked while the enrollments change (subscription before enrollment, as
 * applyGatewayCallback locks them), so two calls at once leave one pending enrollment. Throws EnrollmentError (unknown or canceled subscription) and
 * EnrollmentCheckoutError (the gateway gave no checkout; the new enrollment is marked failed).
 */
export async function startReEnrollment(
  ctx: ReEnrollmentContext,
  input: StartReEnrollmentInput,
): Promise<StartReEnrollmentResult> {
  const parsed = reEnrollmentInput.safeParse(input);
  if (!parsed.success) {
    throw new EnrollmentError("invalid_input", parsed.error.issues.map((issue) => issue.message).join("; "));
  }
  const { subscriptionId, actor, reason = "re_enrollment", returnUrl } = parsed.data;
  const now = ctx.clock.now();
  const { customer, enrollment } = await ctx.db.transaction(async (tx) => {
    const [subscription] = await tx
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId))
      // As applyGatewayCallback locks it: serialises with callbacks, not with foreign-key checks.
      .for("no key update");
    if (!subscription)
      throw new EnrollmentError("subscription_not_found", `no subscription ${subscriptionId}`);
    if (subscription.status === "canceled") {
      throw new EnrollmentError("subscription_canceled", `subscription ${subscriptionId} is canceled`);
    }
    // An archived plan still bills the subscriptions it has, so the card is saved for its price.
    const [plan] = await tx.select().from(plans).where(eq(plans.id, subscription.planId));
    const [customer] = await tx.select().from(customers).where(eq(customers.id, subscription.customerId));
    if (!plan || !customer) throw new Error(`subscription ${subscriptionId} lost its plan or customer`);

    const replaced = await tx
      .update(enrollments)
      .set({ status: "expired" })
      .where(and(eq(enrollments.subscriptionId, subscriptionId), eq(enrollments.status, "pending")))
      .returning({ id: enrollments.id });
    const enrollment = await insertEnrollment(tx, {
      subscription,
      plan,
      customer,
      actor,
      now,
      reason,
      returnUrl,
    });
    for (const old of replaced) {
      await recordEvent(tx, {
        type: ENROLLMENT_EVENTS.enrollmentExpired,
        actor,
        occurredAt: now,
        subscriptionId,
        customerId: customer.id,
        data: { enrollment_id: old.id, replaced_by: enrollment.id },
      });
    }
    return { customer, enrollment };
  });
  const checkoutUrl = await openCheckout(ctx, enrollment, customer, actor);
  return { enrollmentId: enrollment.id, checkoutUrl };
}
