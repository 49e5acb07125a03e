/**
 * Credit a person grants a customer, taken off the next charges (the gateway refunds only whole
 * payments, so part of a payment is given back this way). Rules:
 * - an amount is whole minor units of the plan's currency, more than zero;
 * - the balance after the grant covers at most MAX_CREDIT_PERIODS periods of the plan's price: a
 *   larger one is almost always a typo (10000 for 100.00), and giving a year back is a refund.
 */
export const MAX_CREDIT_PERIODS = 12;

export type CreditGrantRefusal = "amount_not_positive" | "amount_too_large";

export interface CreditGrant {
  readonly amountMinor: number;
  /** The subscription's credit before the grant. */
  readonly balanceMinor: number;
  /** The price of one period of the subscription's plan. */
  readonly periodPriceMinor: number;
}

/** The most a subscription's credit may reach on this plan. */
export function maxCreditMinor(periodPriceMinor: number): number {
  return periodPriceMinor * MAX_CREDIT_PERIODS;
}

export function creditGrantRefusal(grant: CreditGrant): CreditGrantRefusal | null {
  if (!Number.isSafeInteger(grant.amountMinor) || grant.amountMinor <= 0) return "amount_not_positive";
  if (grant.balanceMinor + grant.amountMinor > maxCreditMinor(grant.periodPriceMinor))
    return "amount_too_large";
  return null;
}
