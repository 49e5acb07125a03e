import { randomUUID } from "node:crypto";
import type { Db } from "../../../src/db/client.js";
import { charges, customers, plans, subscriptions } from "../../../src/db/schema/index.js";

/** Subscriptions written straight into the tables, with the periods a usage test needs. */

export interface SeedOptions {
  /** The current period; null: none yet. */
  period: { start: string; end: string } | null;
  /** Start of the billed period before it (a period charge ending at the current start). */
  previousStart?: string;
  status?: "trialing" | "active" | "past_due" | "canceled";
  /** An existing customer, for customers with several subscriptions. */
  customerId?: string;
}

export async function seedUsageSubscription(
  db: Db,
  { period, previousStart, status = "active", customerId }: SeedOptions,
): Promise<{ subscriptionId: string; customerId: string }> {
  const customer =
    customerId ??
    (
      await db
        .insert(customers)
        .values({ email: `u-${randomUUID()}@example.com` })
        .returning()
    )[0]!.id;
  const [plan] = await db
    .insert(plans)
    .values({ name: "Metered", amountMinor: 1000, currency: "QAR", intervalUnit: "month", intervalCount: 1 })
    .returning();
  const start = period ? new Date(period.start) : null;
  const end = period ? new Date(period.end) : null;
  const [subscription] = await db
    .insert(subscriptions)
    .values({
      customerId: customer,
      planId: plan!.id,
      status,
      billingAnchor: start ?? new Date("2026-01-01T00:00:00Z"),
      currentPeriodStart: start,
      currentPeriodEnd: end,
      nextBillingAt: status === "canceled" ? null : (end ?? new Date("2026-03-01T00:00:00Z")),
      trialEnd: status === "trialing" ? (end ?? new Date("2026-03-01T00:00:00Z")) : null,
      canceledAt: status === "canceled" ? new Date("2026-01-20T00:00:00Z") : null,
    })
    .returning();
  if (previousStart && start) {
    await db.insert(charges).values({
      subscriptionId: subscription!.id,
      planId: plan!.id,
      periodStart: new Date(previousStart),
      periodEnd: start,
      amountMinor: 1000,
      currency: "QAR",
      status: "scheduled",
    });
  }
  return { subscriptionId: subscription!.id, customerId: customer };
}
