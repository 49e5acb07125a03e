import { eq } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { customers, plans, subscriptions } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { EnrollmentError } from "./errors.js";
import { ENROLLMENT_EVENTS } from "./events.js";
import { insertEnrollment } from "./new-enrollment.js";
import { openCheckout } from "./open-checkout.js";

export type EnrollContext = Pick<EngineContext, "db" | "clock" | "gateway" | "logger" | "config">;

const enrollInput = z.object({
  customerId: z.uuid({ error: "customerId must be a customer id (uuid)" }),
  planId: z.uuid({ error: "planId must be a plan id (uuid)" }),
  actor: z.string({ error: "actor must be a string" }).trim().min(1, { error: "actor must not be empty" }),
});

export type EnrollInput = z.input<typeof enrollInput>;

export interface EnrollResult {
  subscriptionId: string;
  enrollmentId: string;
  /** Where to send the customer to enter the card. */
  checkoutUrl: string;
}

/**
 * Subscribes a customer to a plan: a pending_enrollment subscription and its pending enrollment
 * (one transaction, with events), then the gateway checkout that saves the card. The subscription
 * starts when the gateway confirms the payment (applyGatewayCallback).
 *
 * Throws EnrollmentError for an unknown customer or plan, or an archived plan (nothing is
 * written), and EnrollmentCheckoutError when the gateway gives no checkout: the subscription then
 * stays pending_enrollment and startReEnrollment(subscriptionId) tries again.
 */
export async function enroll(ctx: EnrollContext, input: EnrollInput): Promise<EnrollResult> {
  const parsed = enrollInput.safeParse(input);
  if (!parsed.success) {
    throw new EnrollmentError("invalid_input", parsed.error.issues.map((issue) => issue.message).join("; "));
  }
  const { customerId, planId, actor } = parsed.data;
  const now = ctx.clock.now();
  const { customer, enrollment } = await ctx.db.transaction(async (tx) => {
    const [customer] = await tx.select().from(customers).where(eq(customers.id, customerId));
    if (!customer) throw new EnrollmentError("customer_not_found", `no customer ${customerId}`);
    // Shared lock: the plan cannot be archived between this check and the commit.
    const [plan] = await tx.select().from(plans).where(eq(plans.id, planId)).for("share");
    if (!plan) throw new EnrollmentError("plan_not_found", `no plan ${planId}`);
    if (plan.archivedAt) throw new EnrollmentError("plan_archived", `plan ${planId} is archived`);

    const [subscription] = await tx
      .insert(subscriptions)
      .values({ customerId, planId, status: "pending_enrollment", timezone: ctx.config.BILLING_TIMEZONE })
      .returning();
    if (!subscription) throw new Error("subscription was not stored");
    await recordEvent(tx, {
      type: ENROLLMENT_EVENTS.subscriptionCreated,
      actor,
      occurredAt: now,
      subscriptionId: subscription.id,
      customerId,
      data: { plan_id: planId, status: subscription.status },
    });
    const enrollment = await insertEnrollment(tx, {
      subscription,
      plan,
      customer,
      actor,
      now,
      reason: "enroll",
    });
    return { customer, enrollment };
  });
  const checkoutUrl = await openCheckout(ctx, enrollment, customer, actor);
  return { subscriptionId: enrollment.subscriptionId, enrollmentId: enrollment.id, checkoutUrl };
}
