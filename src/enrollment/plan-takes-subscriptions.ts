import { EnrollmentError } from "./errors.js";

/**
 * Rule: a plan takes new subscriptions while it is not archived and its currency is one the
 * gateway account takes (GATEWAY_CURRENCIES). Plans are refused in other currencies when created,
 * but one made before its currency left the list would get a subscription whose checkout the
 * gateway then refuses ("no application data for the currency"). Checked before anything is
 * written; throws EnrollmentError (plan_archived, currency_not_supported).
 */
export function assertPlanTakesSubscriptions(
  plan: { readonly id: string; readonly archivedAt: Date | null; readonly currency: string },
  currencies: readonly string[],
): void {
  if (plan.archivedAt) throw new EnrollmentError("plan_archived", `plan ${plan.id} is archived`);
  if (!currencies.includes(plan.currency)) {
    throw new EnrollmentError(
      "currency_not_supported",
      `plan ${plan.id} is in ${plan.currency}, which the gateway account does not take; allowed: ${currencies.join(", ")} (GATEWAY_CURRENCIES)`,
    );
  }
}
