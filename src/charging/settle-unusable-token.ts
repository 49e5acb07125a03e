import type { EngineContext } from "../context/index.js";
import {
  EnrollmentCheckoutError,
  EnrollmentError,
  type StartReEnrollmentResult,
  startReEnrollment,
} from "../enrollment/index.js";
import { type DecidedOutcome, decideOutcome } from "./decide-outcome.js";
import { lockCharges } from "./lock-charges.js";
import { runOutcomeEffects } from "./outcome-effects.js";
import { type ChargeResult, skipped } from "./result.js";
import { writeOutcomes } from "./write-outcomes.js";

/**
 * Rule: a card token that cannot be charged (expired, deactivated, refused by the gateway with -7,
 * or no card at all) ends collection on it, without calling GetnewPayment. In one transaction the
 * payment method is marked unusable, the charge becomes uncollectible and the subscription takes
 * the dunning policy's terminal state (the reducer's token_unusable); the invoice follows.
 *
 * Decision: uncollectible, not needs_review. Nothing is uncertain (no money moved) and no operator
 * can make the token work; what helps is a new card, so the customer is sent a checkout link
 * (startReEnrollment) and the charge can be collected again on the new card (uncollectible →
 * processing). The re-enrollment is started BEFORE the transaction so the `payment_method.unusable`
 * event carries its checkout URL; if the gateway could not open the checkout this time, nothing is
 * written, the charge stays due, and the next run (or tick) tries again. No money moves on this
 * path, so repeating it is safe. When no link can ever be made (the subscription is canceled, the
 * gateway refuses the checkout for good) collection still ends, and the event says why there is no
 * link, so the charge cannot loop.
 */
export interface UnusableToken {
  readonly chargeId: string;
  readonly subscriptionId: string;
  readonly paymentMethodId: string | null;
  /** Why: the token's status ("expired", "deactivated", …) or the gateway's answer. */
  readonly reason: string;
}

type NewCardLink = StartReEnrollmentResult | { readonly refused: string };

async function askForNewCard(ctx: EngineContext, subscriptionId: string): Promise<NewCardLink> {
  try {
    return await startReEnrollment(ctx, { subscriptionId, actor: "system", reason: "card_unusable" });
  } catch (error) {
    if (error instanceof EnrollmentCheckoutError && error.retryable) throw error;
    if (!(error instanceof EnrollmentError)) throw error;
    ctx.logger.warn(
      { err: error, subscriptionId },
      "no new-card link can be made; collection ends without one",
    );
    return { refused: `${error.code}: ${error.message}` };
  }
}

export async function settleUnusableToken(ctx: EngineContext, token: UnusableToken): Promise<ChargeResult> {
  const { chargeId, paymentMethodId, reason } = token;
  const link = await askForNewCard(ctx, token.subscriptionId);
  const linkData =
    "refused" in link
      ? { checkout_url: null, reenrollment_refused: link.refused }
      : { checkout_url: link.checkoutUrl, enrollment_id: link.enrollmentId };
  const now = ctx.clock.now();
  const applied = await ctx.db.$client.begin(async (tx): Promise<DecidedOutcome | null> => {
    const locked = (await lockCharges(tx, [chargeId])).get(chargeId);
    const status = locked?.charge.status;
    if (!locked || (status !== "scheduled" && status !== "retrying")) return null;
    if (paymentMethodId) {
      await tx`
        update payment_methods set unusable_at = ${now.toUTC().toISO()}::timestamptz, unusable_reason = ${reason}
        where id = ${paymentMethodId}::uuid and unusable_at is null`;
    }
    const decision = decideOutcome(locked, {
      outcome: { kind: "token_unusable", description: reason },
      sentAttempts: 0,
      policy: ctx.dunning,
      now,
      actor: "system",
      eventData: {
        "payment_method.unusable": { payment_method_id: paymentMethodId, reason, ...linkData },
      },
    });
    await writeOutcomes(tx, [decision]);
    return decision;
  });
  if (!applied) return skipped(chargeId, "claimed_elsewhere");
  await runOutcomeEffects(ctx, applied.effects);
  return {
    kind: "token_unusable",
    chargeId,
    chargeStatus: applied.result.chargeState,
    checkoutUrl: linkData.checkout_url,
  };
}
