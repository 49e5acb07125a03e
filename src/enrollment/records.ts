import type { customers, enrollments, plans, subscriptions } from "../db/schema/index.js";

/** Row shapes the enrollment services pass around. */
export type EnrollmentRow = typeof enrollments.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PlanRow = typeof plans.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;

export type EnrollmentStatus = EnrollmentRow["status"];

/**
 * Completed and failed enrollments are settled: their checkout was processed and its outcome
 * applied. Pending and expired ones are still open: a customer may pay even an expired (replaced)
 * checkout, and that money must be accounted for.
 */
export function isSettled(status: EnrollmentStatus): boolean {
  return status === "completed" || status === "failed";
}
