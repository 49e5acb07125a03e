import type { DateTime } from "luxon";
import type { PendingQuery, Row } from "postgres";
import { openBreaker } from "../breaker/index.js";
import type { SqlRunner } from "../db/index.js";
import { stalePendingEnrollments } from "../enrollment/index.js";
import { duplicatesOwed, lateChecksDue } from "../late-payments/index.js";
import { linksDue } from "../payment-links/index.js";
import { scheduledChangesDue } from "../plan-changes/index.js";
import { thresholdPlans, usagePrices } from "../usage-billing/index.js";
import { dueSubscriptions } from "./bill-due-subscriptions.js";
import { dueAgain, dueUndispatched } from "./dispatch-due-charges.js";
import { owingInvoices } from "./dispatch-invoices.js";
import { staleRefunds } from "./dispatch-refunds.js";
import { resumable } from "./dispatch-resumed-charges.js";
import { stuck } from "./dispatch-stuck-charges.js";
import { cardsToStop } from "./dispatch-token-deactivations.js";
import type { WorkSource } from "./work-probe.js";

/**
 * What the tick asks before its sweeps (work-probe.ts): each sweep's own sources, with the values
 * the tick gives that sweep, and whether the circuit breaker is open. The lease's cutoff is the SQL
 * the same statement dates it with, so the charge sweeps are asked about the cutoff they will use.
 */
export interface TickWorkOptions {
  readonly now: DateTime;
  readonly cutoff: PendingQuery<Row[]>;
  readonly stuckAfterMs: number;
  readonly refundQuietPeriodMs: number;
  readonly enrollmentPendingHours: number;
}

export function tickWork(sql: SqlRunner, o: TickWorkOptions) {
  // Each order is the one its sweep selects by (see WorkSource): another would change the plan,
  // never the answer. The small tables' sources go without.
  const by = (rows: PendingQuery<Row[]>, order: PendingQuery<Row[]>): WorkSource => ({ rows, order });
  return {
    paused: [{ rows: openBreaker(sql) }],
    planChanges: [by(scheduledChangesDue(sql, o.now), sql`order by pc.effective_at, pc.id`)],
    billing: [by(dueSubscriptions(sql, o.now), sql`order by s.next_billing_at, s.id`)],
    usage: [{ rows: usagePrices(sql) }],
    parts: [{ rows: thresholdPlans(sql) }],
    due: [
      by(dueUndispatched(sql, o.now), sql`order by next_attempt_at, id`),
      by(dueAgain(sql, o.now, o.cutoff), sql`order by dispatched_at`),
    ],
    resumed: [by(resumable(sql, o.now, o.cutoff), sql`order by c.id`)],
    stuck: [by(stuck(sql, o.stuckAfterMs / 1000, o.cutoff), sql`order by ch.id`)],
    invoices: [by(owingInvoices(sql), sql`order by c.id`)],
    cards: [by(cardsToStop(sql), sql`order by pm.id`)],
    refunds: [by(staleRefunds(sql, o.refundQuietPeriodMs), sql`order by created_at, id`)],
    enrollments: [by(stalePendingEnrollments(sql, o.enrollmentPendingHours), sql`order by created_at, id`)],
    "late-payments": [by(lateChecksDue(sql), sql`order by late_check_at, id`)],
    duplicates: [by(duplicatesOwed(sql), sql`order by a.duplicate_at, a.id`)],
    links: [by(linksDue(sql, o.now), sql`order by l.next_reminder_at, l.charge_id`)],
  } satisfies Record<string, readonly WorkSource[]>;
}
