import { IllegalTransitionError, isLive } from "../../billing/index.js";
import { cancelSubscription, resumeSubscription } from "../../cancellation/index.js";
import type { EngineContext } from "../../context/index.js";
import { EnrollmentCheckoutError, EnrollmentError, startReEnrollment } from "../../enrollment/index.js";
import { type OwnSubscription, PORTAL_PATH } from "../../portal/index.js";
import type { NoticeKey } from "./i18n.js";

/**
 * What the portal's forms do, through the same services as the API and the CLI, as actor
 * "customer:portal". Each takes a subscription already checked to be the session customer's
 * (routes.ts) and answers where the browser goes next: a notice on /portal, or the gateway's hosted
 * checkout. A refusal of the services becomes a notice; anything else is a real error.
 */

export const PORTAL_ACTOR = "customer:portal";

export type ActionOutcome = { notice: NoticeKey } | { checkoutUrl: string };

/** A new card through the hosted checkout, as the new-card link does; the callback completes it. */
export async function updateCard(ctx: EngineContext, sub: OwnSubscription): Promise<ActionOutcome> {
  try {
    const { checkoutUrl } = await startReEnrollment(ctx, {
      subscriptionId: sub.id,
      actor: PORTAL_ACTOR,
      reason: "customer asked for a new card in the portal",
      returnUrl: `${ctx.publicUrl}${PORTAL_PATH}`,
    });
    return { checkoutUrl };
  } catch (error) {
    if (error instanceof EnrollmentCheckoutError) return { notice: "gateway" };
    if (error instanceof EnrollmentError) return { notice: "refused" };
    throw error;
  }
}

/**
 * Only a live subscription is canceled from the portal, and only at the period end: for any other
 * state cancelSubscription would end it at once, which the customer was not asked to confirm.
 */
export async function cancelAtPeriodEnd(ctx: EngineContext, sub: OwnSubscription): Promise<ActionOutcome> {
  if (!isLive(sub.status)) return { notice: "refused" };
  const result = await cancelSubscription(ctx, {
    subscriptionId: sub.id,
    actor: PORTAL_ACTOR,
    mode: "at_period_end",
    reason: "customer canceled in the portal",
  });
  // A subscription already due has no period left to keep: cancelSubscription ended it at once.
  return { notice: result.status === "canceled" ? "ended" : "canceled" };
}

/** Only a pending cancellation is undone here; a pause is the merchant's to lift. */
export async function resumePendingCancellation(
  ctx: EngineContext,
  sub: OwnSubscription,
): Promise<ActionOutcome> {
  if (!isLive(sub.status) || !sub.cancelAtPeriodEnd) return { notice: "refused" };
  try {
    await resumeSubscription(ctx, { subscriptionId: sub.id, actor: PORTAL_ACTOR });
    return { notice: "resumed" };
  } catch (error) {
    if (error instanceof IllegalTransitionError) return { notice: "refused" };
    throw error;
  }
}
