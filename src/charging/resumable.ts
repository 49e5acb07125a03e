import { and, eq, gte, inArray, isNotNull, notExists, type SQL, sql } from "drizzle-orm";
import { alias, QueryBuilder } from "drizzle-orm/pg-core";
import { chargeAttempts, charges, paymentMethods, subscriptions } from "../db/schema/index.js";

/**
 * Collection of a charge resumes on a new card: its subscription is in debt (past_due or unpaid)
 * and the subscription's current card has not been tried on this charge yet, which is what the
 * enrollment service's `payment_method.replaced` (resume_collection) means. Derived from rows, not
 * from the event, so nothing is missed if a process dies in between.
 *
 * Usable in a query that joins charges, their subscription and the subscription's current payment
 * method. Whether that card still works is checked separately (tokenStatus).
 */
const tried = alias(chargeAttempts, "tried_on_card");

const attemptOnCurrentCard = new QueryBuilder()
  .select({ one: sql`1` })
  .from(tried)
  .where(and(eq(tried.chargeId, charges.id), gte(tried.createdAt, paymentMethods.createdAt)));

export const resumableOnNewCard: SQL<boolean> = sql<boolean>`(${and(
  inArray(subscriptions.status, ["past_due", "unpaid"]),
  isNotNull(paymentMethods.id),
  notExists(attemptOnCurrentCard),
)})`;
