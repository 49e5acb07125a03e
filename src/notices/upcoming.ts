import type { DateTime } from "luxon";
import type { CollectionMethod, NoticeWindow, PriceModelName } from "../billing/index.js";
import type { SqlTx } from "../db/index.js";
import { EVENT_TYPES } from "../events/index.js";

/**
 * The subscriptions a notice before money moves is due for, locked. Rules:
 * - trial_ending: a trialing subscription whose first charge (at next_billing_at, its trial's end)
 *   falls in the window; renewal_upcoming: an active one whose next period starts in the window.
 *   past_due subscriptions are not renewed (one open debt at a time), paused and canceled ones are
 *   not billed, and one set to cancel at its period's end ends instead of renewing: none is told;
 * - once per subscription and period: a notice is keyed by the instant it announces (trial_end,
 *   or period_start = next_billing_at), written into its event's data as the text this query
 *   makes of it, and a subscription whose event of the kind carries that key is left out. The
 *   check reads events through events_subscription_idx, never every event of the type;
 * - rows are locked FOR UPDATE SKIP LOCKED in (next_billing_at, id) order, the order of
 *   subscriptions_due_idx, so concurrent ticks split them; alreadyNoticed() then asks again, as a
 *   statement that sees whatever a concurrent tick committed before this one took the lock;
 * - the plan named is the one the period will bill: a plan change scheduled to take effect by then
 *   (plan-changes/apply-scheduled.ts applies it before billing), else the current one, and so is
 *   the quantity.
 */
export type NoticeKind = "trial_ending" | "renewal_upcoming";

interface KindRule {
  readonly status: "trialing" | "active";
  readonly type: string;
  /** The event data field holding the key. */
  readonly keyField: "trial_end" | "period_start";
}

export const NOTICE_KINDS: Readonly<Record<NoticeKind, KindRule>> = {
  trial_ending: { status: "trialing", type: EVENT_TYPES.subscriptionTrialEnding, keyField: "trial_end" },
  renewal_upcoming: {
    status: "active",
    type: EVENT_TYPES.subscriptionRenewalUpcoming,
    keyField: "period_start",
  },
};

export interface UpcomingRow {
  id: string;
  customer_id: string;
  timezone: string;
  collection_method: CollectionMethod;
  credit_minor: string;
  next_billing_at: string;
  /** The announced instant as ISO 8601 UTC text with milliseconds, as the event's data keeps it. */
  due_key: string;
  plan_id: string;
  plan_name: string;
  quantity: number;
  amount_minor: string;
  price_model: PriceModelName;
  tiers: unknown;
  package_size: number | null;
  currency: string;
  pm_issued_at: string | null;
  pm_expires_at: string | null;
  pm_deactivated_at: string | null;
  pm_unusable_at: string | null;
}

export interface Cursor {
  readonly at: string;
  readonly id: string;
}

/** The instant a kind announces, as text: the same text in the data written and in the check. */
function keyText(tx: SqlTx, kind: NoticeKind) {
  const column = kind === "trial_ending" ? tx`s.trial_end` : tx`s.next_billing_at`;
  return tx`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

export function lockUpcoming(
  tx: SqlTx,
  kind: NoticeKind,
  window: NoticeWindow,
  options: { limit: number; after: Cursor | undefined },
): Promise<UpcomingRow[]> {
  const rule = NOTICE_KINDS[kind];
  const key = keyText(tx, kind);
  const { after } = options;
  return tx<UpcomingRow[]>`
    select s.id, s.customer_id, s.timezone, s.collection_method, s.credit_minor::text as credit_minor,
           s.next_billing_at, ${key} as due_key,
           p.id as plan_id, p.name as plan_name, coalesce(pc.to_quantity, s.quantity) as quantity,
           p.amount_minor::text as amount_minor, p.price_model, p.tiers, p.package_size, p.currency,
           pm.issued_at as pm_issued_at, pm.expires_at as pm_expires_at,
           pm.deactivated_at as pm_deactivated_at, pm.unusable_at as pm_unusable_at
    from subscriptions s
    left join plan_changes pc on pc.subscription_id = s.id and pc.status = 'scheduled'
      and pc.effective_at <= s.next_billing_at
    join plans p on p.id = coalesce(pc.to_plan_id, s.plan_id)
    left join payment_methods pm on pm.id = s.payment_method_id
    where s.status = ${rule.status}::subscription_status and not s.cancel_at_period_end
      and s.next_billing_at > ${iso(window.after)}::timestamptz
      and s.next_billing_at <= ${iso(window.until)}::timestamptz
      and (s.next_billing_at, s.id) > (${after?.at ?? "-infinity"}::timestamptz, ${after?.id ?? "00000000-0000-0000-0000-000000000000"}::uuid)
      and not exists (
        select 1 from events e
        where e.subscription_id = s.id and e.type = ${rule.type} and e.data ->> ${rule.keyField} = ${key})
    order by s.next_billing_at, s.id
    limit ${options.limit}
    for update of s skip locked`;
}

/** Of the rows locked, the ids whose notice a concurrent tick recorded after this one's scan began. */
export async function alreadyNoticed(
  tx: SqlTx,
  kind: NoticeKind,
  rows: readonly UpcomingRow[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const rule = NOTICE_KINDS[kind];
  const found = await tx<{ id: string }[]>`
    select c.id::text as id
    from unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.due_key)}::text[]) as c(id, key)
    where exists (
      select 1 from events e
      where e.subscription_id = c.id and e.type = ${rule.type} and e.data ->> ${rule.keyField} = c.key)`;
  return new Set(found.map((row) => row.id));
}

function iso(at: DateTime): string {
  return at.toUTC().toISO() as string;
}
