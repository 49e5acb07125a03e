import type { DateTime } from "luxon";
import type { Sql } from "../db/index.js";

/**
 * Claims the paid charges whose record at the gateway is due (pending, next_attempt_at reached),
 * oldest first through gateway_payment_records_due_idx, FOR UPDATE SKIP LOCKED so concurrent ticks
 * split them. One statement, committed before any call: the attempt is counted (a crash mid-call
 * still shows it may have reached the gateway) and the row is leased, next_attempt_at moved to
 * `leaseUntil`, so nothing else sends it meanwhile and a sender that dies leaves it due again.
 * Each row comes with what the invoice names beyond the charge: its receipt (written with the
 * record by the paying transaction) and the gateway transaction that paid it.
 */
export interface ClaimedRecord {
  charge_id: string;
  subscription_id: string;
  customer_id: string;
  attempts: number;
  receipt_number: string;
  issued_at: string;
  paid_transaction_id: string;
  paid_at: string;
}

export function claimPaymentRecords(
  sql: Sql,
  options: { now: DateTime; leaseUntil: DateTime; limit: number },
): Promise<ClaimedRecord[]> {
  return sql<ClaimedRecord[]>`
    with due as (
      select r.charge_id from gateway_payment_records r
      where r.status = 'pending' and r.next_attempt_at <= ${options.now.toUTC().toISO()}::timestamptz
      order by r.next_attempt_at, r.charge_id
      limit ${options.limit}
      for update of r skip locked)
    update gateway_payment_records r
    set attempts = r.attempts + 1, next_attempt_at = ${options.leaseUntil.toUTC().toISO()}::timestamptz
    from due
    join charges c on c.id = due.charge_id
    join receipts rc on rc.charge_id = due.charge_id
    where r.charge_id = due.charge_id
    returning r.charge_id, c.subscription_id, rc.customer_id, r.attempts, rc.number::text as receipt_number,
              rc.issued_at, c.paid_transaction_id, c.paid_at`;
}
