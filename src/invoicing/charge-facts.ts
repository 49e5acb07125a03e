import { eq } from "drizzle-orm";
import { toInstant } from "../clock/index.js";
import type { EngineContext } from "../context/index.js";
import { charges, customers, plans, subscriptions } from "../db/schema/index.js";
import type { InvoiceFacts } from "./invoice-request.js";

/**
 * What a gateway invoice says of a charge, read from the charge (its amount and what came off it,
 * the plan it billed, its period), its subscription's zone and its customer: the one read both
 * invoices take, the uncollectible charge's (create-invoice.ts) and the paid one's
 * (send-payment-records.ts).
 */
export class InvoiceChargeNotFoundError extends Error {
  override name = "InvoiceChargeNotFoundError";
  constructor(readonly chargeId: string) {
    super(`no charge ${chargeId} to invoice`);
  }
}

export interface ChargeFacts extends Omit<InvoiceFacts, "issuedAt"> {
  status: string;
  subscriptionId: string;
  customerId: string;
}

export async function loadChargeFacts(
  ctx: Pick<EngineContext, "db">,
  chargeId: string,
): Promise<ChargeFacts> {
  const [row] = await ctx.db
    .select({
      charge: charges,
      subscription: { id: subscriptions.id, timezone: subscriptions.timezone },
      plan: { name: plans.name, productId: plans.productId },
      customer: {
        id: customers.id,
        email: customers.email,
        name: customers.name,
        phone: customers.phone,
        language: customers.language,
      },
    })
    .from(charges)
    .innerJoin(subscriptions, eq(subscriptions.id, charges.subscriptionId))
    .innerJoin(plans, eq(plans.id, charges.planId))
    .innerJoin(customers, eq(customers.id, subscriptions.customerId))
    .where(eq(charges.id, chargeId));
  if (!row) throw new InvoiceChargeNotFoundError(chargeId);
  const { charge, subscription, plan, customer } = row;
  return {
    chargeId,
    status: charge.status,
    subscriptionId: subscription.id,
    customerId: customer.id,
    amountMinor: charge.amountMinor,
    discountMinor: charge.discountMinor,
    discountPercent: charge.discountPercent,
    creditMinor: charge.creditMinor,
    kind: charge.kind,
    currency: charge.currency,
    periodStart: toInstant(charge.periodStart),
    periodEnd: toInstant(charge.periodEnd),
    timezone: subscription.timezone,
    plan,
    customer,
  };
}
