import type { DateTime } from "luxon";
import { pgTimestamp, type SqlTx } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import type { DecidedOutcome } from "./decide-outcome.js";
import type { SubscriptionPatch } from "./subscription-patch.js";

/**
 * Rule: decided outcomes (decide-outcome.ts) are written by the transaction that holds their rows
 * locked, in at most four prepared statements whatever their number: one UPDATE … FROM unnest for
 * the charges, one for the subscriptions that change state, and the events with their webhook
 * outbox (recordEvents). A column the decision leaves out keeps its value (coalesce), exactly as
 * a one-row update that does not set it. Several decisions touching one subscription were made in
 * order, each seeing the previous (afterDecision); their patches are merged in that order.
 */
const iso = (instant: DateTime | null | undefined) => (instant ? pgTimestamp(instant) : null);

export async function writeOutcomes(tx: SqlTx, decisions: readonly DecidedOutcome[]): Promise<void> {
  if (decisions.length === 0) return;
  const c = decisions.map((d) => d.charge);
  await tx`
    update charges c set
      status = v.status::charge_status,
      next_attempt_at = v.next_attempt_at::timestamptz,
      first_failed_at = v.first_failed_at::timestamptz,
      paid_at = coalesce(v.paid_at::timestamptz, c.paid_at),
      paid_transaction_id = coalesce(v.paid_transaction_id, c.paid_transaction_id),
      last_decline_code = coalesce(v.last_decline_code, c.last_decline_code),
      last_decline_description = coalesce(v.last_decline_description, c.last_decline_description)
    from unnest(
      ${decisions.map((d) => d.chargeId)}::uuid[], ${c.map((x) => x.status)}::text[],
      ${c.map((x) => iso(x.nextAttemptAt))}::text[], ${c.map((x) => iso(x.firstFailedAt))}::text[],
      ${c.map((x) => iso(x.paidAt))}::text[], ${c.map((x) => x.paidTransactionId ?? null)}::text[],
      ${c.map((x) => x.lastDeclineCode ?? null)}::text[], ${c.map((x) => x.lastDeclineDescription ?? null)}::text[]
    ) as v(id, status, next_attempt_at, first_failed_at, paid_at, paid_transaction_id, last_decline_code,
           last_decline_description)
    where c.id = v.id`;

  const last = new Map<string, NonNullable<DecidedOutcome["subscription"]>>();
  for (const { subscription: patch } of decisions) {
    if (patch) last.set(patch.id, { ...last.get(patch.id), ...withoutUndefined(patch) });
  }
  await writeSubscriptionPatches(tx, [...last.values()]);

  await recordEvents(
    tx,
    decisions.flatMap((d) => d.events),
  );
}

/**
 * Subscriptions moved by charge outcomes (subscription-patch.ts), in one UPDATE … FROM unnest
 * whatever their number; a column a patch leaves out keeps its value.
 */
export async function writeSubscriptionPatches(
  tx: SqlTx,
  patches: readonly (SubscriptionPatch & { readonly id: string })[],
): Promise<void> {
  if (patches.length === 0) return;
  const s = patches;
  await tx`
    update subscriptions s set
      status = v.status::subscription_status,
      next_billing_at = case when v.set_next_billing then v.next_billing_at::timestamptz
                             else s.next_billing_at end,
      canceled_at = coalesce(v.canceled_at::timestamptz, s.canceled_at),
      ended_reason = coalesce(v.ended_reason, s.ended_reason)
    from unnest(
      ${s.map((x) => x.id)}::uuid[], ${s.map((x) => x.status)}::text[],
      ${s.map((x) => String(x.nextBillingAt !== undefined))}::text[]::bool[], ${s.map((x) => iso(x.nextBillingAt))}::text[],
      ${s.map((x) => iso(x.canceledAt))}::text[], ${s.map((x) => x.endedReason ?? null)}::text[]
    ) as v(id, status, set_next_billing, next_billing_at, canceled_at, ended_reason)
    where s.id = v.id`;
}

function withoutUndefined<T extends object>(patch: T): T {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as T;
}
