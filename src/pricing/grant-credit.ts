import { eq, sql } from "drizzle-orm";
import {
  amountFixedByToken,
  type CreditGrantRefusal,
  creditGrantRefusal,
  MAX_CREDIT_PERIODS,
  maxCreditMinor,
  positiveMinorUnits,
  Refusal,
} from "../billing/index.js";
import { lockSubscription } from "../cancellation/index.js";
import type { EngineContext } from "../context/index.js";
import type { Tx } from "../db/index.js";
import { paymentMethods, plans, subscriptions } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../events/index.js";
import { formatMoney, money } from "../money/index.js";
import { CreditInputError, parseCreditGrant } from "./credit-input.js";

/**
 * grantCredit: a person gives a customer credit, taken off the subscription's next charges (the
 * gateway refunds only whole payments, so part of a payment goes back this way). In one
 * transaction under the subscription's row lock, credit_minor grows and `subscription.credit_granted`
 * is recorded naming the actor (an API key, the CLI) and the reason: the append-only event log is
 * the audit. Refused with nothing written (CreditRefusal, CreditInputError):
 * - a canceled subscription: nothing will be charged again;
 * - a subscription charged with a recurring card token (its card's kind, or its plan's before a
 *   card is saved): the gateway charges such a token the amount it was saved for and no other, so
 *   a reduced charge could not be collected (charging/process-charge-batch.ts);
 * - an amount that is not positive, has more decimals than the plan's currency, or would take the
 *   balance past billing/credit.ts's ceiling.
 */
export type CreditRefusalCode = "subscription_ended" | "card_amount_fixed" | "amount_too_large";

export class CreditRefusal extends Refusal<CreditRefusalCode> {
  override name = "CreditRefusal";

  constructor(
    code: CreditRefusalCode,
    message: string,
    details: Record<string, unknown> = {},
    /** The body field the refusal is about, when one is. */
    readonly field?: string,
  ) {
    super(code, message, details);
  }
}

export interface GrantCreditInput {
  subscriptionId: string;
  /** A decimal string in the plan's currency ("10.00"); or amountMinor. */
  amount?: string | undefined;
  amountMinor?: number | undefined;
  reason: string;
  /** "api:<key id>", "cli", … as events name their actors. */
  actor: string;
}

export interface CreditGranted {
  subscriptionId: string;
  amountMinor: number;
  currency: string;
  balanceMinor: number;
  eventId: number;
}

export async function grantCredit(
  ctx: Pick<EngineContext, "db" | "clock">,
  input: GrantCreditInput,
): Promise<CreditGranted> {
  const body = parseCreditGrant({
    amount: input.amount,
    amount_minor: input.amountMinor,
    reason: input.reason,
  });
  const field = body.amount === undefined ? "amount_minor" : "amount";
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const subscription = await lockSubscription(tx, input.subscriptionId);
    const id = subscription.id;
    if (subscription.status === "canceled") {
      throw new CreditRefusal(
        "subscription_ended",
        `subscription ${id} is canceled: it is charged nothing more that credit could pay`,
        { status: subscription.status },
      );
    }
    const plan = await planOf(tx, subscription.planId);
    const cardKind = await cardKindOf(tx, subscription.paymentMethodId);
    if (amountFixedByToken({ ...subscription, cardKind, planBillingMode: plan.billingMode })) {
      throw new CreditRefusal(
        "card_amount_fixed",
        `subscription ${id} is charged with a recurring card token, which the gateway charges only the amount ` +
          "it was saved for: credit would make a charge it cannot collect. Refund the payment, or move the " +
          "subscription to payment links (collection-method send_payment_link) first",
      );
    }
    const amountMinor = body.amount_minor ?? minorOf(body.amount as string, plan.currency);
    const refusal = creditGrantRefusal({
      amountMinor,
      balanceMinor: subscription.creditMinor,
      periodPriceMinor: plan.amountMinor,
    });
    if (refusal) throw refusalOf(refusal, field, { ...plan, balanceMinor: subscription.creditMinor });
    const [updated] = await tx
      .update(subscriptions)
      .set({ creditMinor: sql`${subscriptions.creditMinor} + ${amountMinor}` })
      .where(eq(subscriptions.id, id))
      .returning({ creditMinor: subscriptions.creditMinor });
    const balanceMinor = updated!.creditMinor;
    const event = await recordEvent(tx, {
      type: EVENT_TYPES.subscriptionCreditGranted,
      actor: input.actor,
      occurredAt: now,
      subscriptionId: id,
      customerId: subscription.customerId,
      data: {
        amount_minor: amountMinor,
        currency: plan.currency,
        reason: body.reason,
        balance_minor: balanceMinor,
      },
    });
    return { subscriptionId: id, amountMinor, currency: plan.currency, balanceMinor, eventId: event.id };
  });
}

async function planOf(tx: Tx, planId: string) {
  const [plan] = await tx
    .select({ currency: plans.currency, amountMinor: plans.amountMinor, billingMode: plans.billingMode })
    .from(plans)
    .where(eq(plans.id, planId));
  if (!plan) throw new Error(`plan ${planId} of a subscription is missing`);
  return plan;
}

async function cardKindOf(tx: Tx, paymentMethodId: string | null) {
  if (paymentMethodId === null) return null;
  const [card] = await tx
    .select({ kind: paymentMethods.kind })
    .from(paymentMethods)
    .where(eq(paymentMethods.id, paymentMethodId));
  return card?.kind ?? null;
}

/** The decimal amount in the plan's currency, exactly; more decimals than it has is the field's fault. */
function minorOf(amount: string, currency: string): number {
  const minor = positiveMinorUnits(amount, currency, "amount");
  if (typeof minor === "string") throw new CreditInputError([{ field: "amount", message: minor }]);
  return minor;
}

function refusalOf(
  refusal: CreditGrantRefusal,
  field: string,
  plan: { currency: string; amountMinor: number; balanceMinor: number },
): Error {
  if (refusal === "amount_not_positive")
    return new CreditInputError([{ field, message: `${field} must be greater than zero` }]);
  const ceiling = money(maxCreditMinor(plan.amountMinor), plan.currency);
  return new CreditRefusal(
    "amount_too_large",
    `${field} would take the credit balance past ${formatMoney(ceiling)}, ${MAX_CREDIT_PERIODS} periods ` +
      `of the plan's price (the balance is ${formatMoney(money(plan.balanceMinor, plan.currency))}); ` +
      "give back a whole payment with a refund instead",
    { max_balance_minor: ceiling.minor, balance_minor: plan.balanceMinor },
    field,
  );
}
