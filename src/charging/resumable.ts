import type { PendingQuery, Row } from "postgres";
import type { SqlRunner } from "../db/index.js";

/**
 * Collection of a charge resumes on a new card: its subscription is in debt (past_due or unpaid)
 * and the subscription's current card has not been tried on this charge yet, which is what the
 * enrollment service's `payment_method.replaced` (resume_collection) means. Derived from rows, not
 * from the event, so nothing is missed if a process dies in between.
 *
 * A fragment for a tagged query that names the charge `c`, its subscription `s` and the
 * subscription's current payment method `pm` (left-joined or joined). Whether that card still works
 * is checked separately (tokenStatus).
 */
export function resumableOnNewCard(sql: SqlRunner): PendingQuery<Row[]> {
  return sql`(s.status in ('past_due', 'unpaid') and pm.id is not null and not exists (
    select 1 from charge_attempts tried where tried.charge_id = c.id and tried.created_at >= pm.created_at))`;
}
