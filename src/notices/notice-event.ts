import type { DateTime } from "luxon";
import { isChargeable, localDay } from "../billing/index.js";
import { pgInstant, pgInstantOrNull } from "../db/index.js";
import type { EventInput } from "../events/index.js";
import { NOTICE_KINDS, type NoticeKind, type UpcomingRow } from "./upcoming.js";

/**
 * The event of one notice, recorded by the scheduler at the tick's `now`. Its data is what the
 * customer message and the merchant's webhook need: when money moves, how much (the charge the
 * scheduler will create then, priced as it prices it), on which plan, how it is collected, and for
 * a trial whether a saved card will still work then (has_card) or one must be added first.
 */
export function noticeEvent(
  kind: NoticeKind,
  row: UpcomingRow,
  amountMinor: number,
  now: DateTime,
): EventInput {
  const dueAt = pgInstant(row.next_billing_at);
  const common = {
    amount_minor: amountMinor,
    currency: row.currency,
    plan_id: row.plan_id,
    plan_name: row.plan_name,
    collection_method: row.collection_method,
  };
  const data =
    kind === "trial_ending"
      ? { trial_end: row.due_key, ...common, has_card: hasCard(row, dueAt) }
      : {
          period_start: row.due_key,
          renews_on: localDay(dueAt, row.timezone),
          ...common,
          trial_converts: false,
        };
  return {
    type: NOTICE_KINDS[kind].type,
    actor: "scheduler",
    occurredAt: now,
    subscriptionId: row.id,
    customerId: row.customer_id,
    data,
  };
}

/** A saved card the gateway will still charge when the trial converts. */
function hasCard(row: UpcomingRow, dueAt: DateTime): boolean {
  if (row.pm_issued_at === null || row.pm_expires_at === null) return false;
  return isChargeable(
    {
      issuedAt: pgInstant(row.pm_issued_at),
      expiresAt: pgInstant(row.pm_expires_at),
      deactivatedAt: pgInstantOrNull(row.pm_deactivated_at),
      unusableAt: pgInstantOrNull(row.pm_unusable_at),
    },
    dueAt,
  );
}
