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
  return {
    paused: [openBreaker(sql)],
    planChanges: [scheduledChangesDue(sql, o.now)],
    billing: [dueSubscriptions(sql, o.now)],
    usage: [usagePrices(sql)],
    parts: [thresholdPlans(sql)],
    due: [dueUndispatched(sql, o.now), dueAgain(sql, o.now, o.cutoff)],
    resumed: [resumable(sql, o.now, o.cutoff)],
    stuck: [stuck(sql, o.stuckAfterMs / 1000, o.cutoff)],
    invoices: [owingInvoices(sql)],
    cards: [cardsToStop(sql)],
    refunds: [staleRefunds(sql, o.refundQuietPeriodMs)],
    enrollments: [stalePendingEnrollments(sql, o.enrollmentPendingHours)],
    "late-payments": [lateChecksDue(sql)],
    duplicates: [duplicatesOwed(sql)],
    links: [linksDue(sql, o.now)],
  } satisfies Record<string, readonly WorkSource[]>;
}
