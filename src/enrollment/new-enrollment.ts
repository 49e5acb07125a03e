import type { DateTime } from "luxon";
import type { Tx } from "../db/index.js";
import { enrollments } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { ENROLLMENT_EVENTS } from "./events.js";
import type { CustomerRow, EnrollmentRow, PlanRow, SubscriptionRow } from "./records.js";
import { verificationAmountMinor } from "./verification-amount.js";

export interface NewEnrollment {
  subscription: SubscriptionRow;
  plan: PlanRow;
  customer: CustomerRow;
  actor: string;
  now: DateTime;
  /** Why a card is asked for, recorded with the event ("enroll", "re_enrollment", …). */
  reason: string;
  /** Where the result page links back to, when the checkout was started from one of our pages. */
  returnUrl?: string;
}

/**
 * Inserts a pending enrollment for the subscription's period price (verification-amount.ts), in the plan's billing mode and the customer's
 * language, with its event. The caller has made sure no other enrollment of the subscription is
 * pending (one pending per subscription is a unique index).
 */
export async function insertEnrollment(tx: Tx, input: NewEnrollment): Promise<EnrollmentRow> {
  const { subscription, plan, customer, actor, now, reason, returnUrl } = input;
  const [enrollment] = await tx
    .insert(enrollments)
    .values({
      subscriptionId: subscription.id,
      kind: plan.billingMode,
      amountMinor: verificationAmountMinor(plan, subscription.quantity),
      currency: plan.currency,
      language: customer.language,
      returnUrl: returnUrl ?? null,
    })
    .returning();
  if (!enrollment) throw new Error("enrollment was not stored");
  await recordEvent(tx, {
    type: ENROLLMENT_EVENTS.enrollmentStarted,
    actor,
    occurredAt: now,
    subscriptionId: subscription.id,
    customerId: customer.id,
    data: {
      enrollment_id: enrollment.id,
      kind: enrollment.kind,
      amount_minor: enrollment.amountMinor,
      currency: enrollment.currency,
      reason,
    },
  });
  return enrollment;
}
