import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.js";
import { charges, customers, plans, subscriptions } from "../../src/db/schema/index.js";

/** Minimal valid rows for constraint tests; each call makes a new customer and subscription. */

export const START = new Date("2025-01-01T00:00:00Z");
export const days = (n: number) => new Date(START.getTime() + n * 86_400_000);

/** A new customer and a monthly QAR 100.00 plan, inserted directly. */
export async function seedCustomerAndPlan(db: Db) {
  const [customer] = await db
    .insert(customers)
    .values({ email: `c-${randomUUID()}@example.com`, name: "Test Customer" })
    .returning();
  const [plan] = await db
    .insert(plans)
    .values({
      name: "Monthly",
      amountMinor: 10_000,
      currency: "QAR",
      intervalUnit: "month",
      intervalCount: 1,
    })
    .returning();
  return { customer: customer!, plan: plan! };
}

export async function seedSubscription(db: Db) {
  const { customer, plan } = await seedCustomerAndPlan(db);
  const [subscription] = await db
    .insert(subscriptions)
    .values({
      customerId: customer.id,
      planId: plan.id,
      status: "active",
      billingAnchor: START,
      currentPeriodStart: START,
      currentPeriodEnd: days(31),
      nextBillingAt: days(31),
    })
    .returning();
  return { customer: customer!, plan: plan!, subscription: subscription! };
}

/** A charge's plan_id for a row written past the services: its subscription's plan now. */
export function planOfSubscription(subscriptionId: string): SQL {
  return sql`(select plan_id from subscriptions where id = ${subscriptionId})`;
}

export async function seedCharge(db: Db, subscriptionId: string, periodStart = START) {
  const [charge] = await db
    .insert(charges)
    .values({
      subscriptionId,
      planId: planOfSubscription(subscriptionId),
      periodStart,
      periodEnd: new Date(periodStart.getTime() + 31 * 86_400_000),
      amountMinor: 10_000,
      currency: "QAR",
      nextAttemptAt: periodStart,
    })
    .returning();
  return charge!;
}
