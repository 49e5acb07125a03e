import { pgInteger, type SqlRunner } from "../db/index.js";

/**
 * What late payments came to, for the bench, the chaos suite and operators: attempts still
 * watched, payments found late (by resolution, from their events), duplicates detected, refunded
 * (a completed or under_processing refund) and left (no such refund yet).
 */
export interface LatePaymentReport {
  readonly watched: number;
  readonly foundLatePaid: number;
  readonly duplicatesDetected: number;
  readonly duplicatesRefunded: number;
  readonly duplicatesLeft: number;
}

export async function latePaymentReport(sql: SqlRunner): Promise<LatePaymentReport> {
  const [row] = await sql<Record<string, string>[]>`
    select
      (select count(*) from charge_attempts
        where status = 'failed_permanently' and late_check_at is not null) as watched,
      (select count(*) from events
        where type = 'charge.payment_found_late' and data->>'resolution' = 'paid') as found_late_paid,
      (select count(*) from charge_attempts where duplicate_at is not null) as duplicates,
      (select count(*) from charge_attempts a where a.duplicate_at is not null and exists (
        select 1 from refunds r where r.charge_attempt_id = a.id
          and r.status in ('completed', 'under_processing'))) as refunded`;
  const count = (key: string) => pgInteger(row?.[key] ?? "0");
  return {
    watched: count("watched"),
    foundLatePaid: count("found_late_paid"),
    duplicatesDetected: count("duplicates"),
    duplicatesRefunded: count("refunded"),
    duplicatesLeft: count("duplicates") - count("refunded"),
  };
}
