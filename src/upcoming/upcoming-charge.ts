import type { DateTime } from "luxon";
import { liveAddons } from "../addons/index.js";
import {
  type ChargeLine,
  type IntervalUnit,
  includedTax,
  type PeriodCharge,
  type PriceModelName,
  periodContaining,
  periodLines,
  planLine,
  type SubscriptionState,
  subtotalOf,
} from "../billing/index.js";
import { pgInstant, pgInteger, type SqlRunner } from "../db/index.js";
import { waitingOneOffs } from "../one-off-charges/index.js";
import { type LiveDiscount, liveDiscounts, priceModelOfColumns, pricePeriods } from "../pricing/index.js";
import { type UsagePreview, usagePreview } from "../usage-billing/index.js";

/**
 * The next charge of a subscription as the billing tick will create it, before it exists: the
 * period starting at next_billing_at, on the plan and quantity it will bill (a change scheduled to
 * take effect by then, which the tick applies first, else the current ones), with its add-ons and
 * the one-off charges waiting for it, priced by the same lines (billing/charge-lines.ts) and the same discount-then-credit rule (pricePeriods) as
 * scheduler/bill-due-subscriptions.ts, with the tax included in it (TAX_RATE_PERCENT). Reads only.
 * A subscription the tick will not bill (past_due: one open debt at a time; ending at its period's
 * end; paused, canceled, pending) has no upcoming charge, and says why.
 *
 * Beside it, `usage`: the current period's usage so far, priced as the usage charge the tick makes
 * once the period has closed (usage-billing/usage-preview.ts); null when its plan prices no usage.
 * The period charge itself does not change with usage.
 */

export interface UpcomingCharge {
  readonly subscriptionId: string;
  readonly planId: string;
  readonly quantity: number;
  readonly currency: string;
  readonly periodStart: DateTime;
  readonly periodEnd: DateTime;
  readonly lines: readonly ChargeLine[];
  readonly subtotalMinor: number;
  readonly charge: PeriodCharge;
  readonly discount: LiveDiscount | null;
  readonly taxMinor: number;
  readonly usage: UsagePreview | null;
}

export type NoUpcomingCharge = { readonly reason: "not_found" | "not_billed"; readonly detail: string };

interface Row {
  id: string;
  status: SubscriptionState;
  timezone: string;
  billing_anchor: string | null;
  next_billing_at: string | null;
  cancel_at_period_end: boolean;
  credit_minor: string;
  quantity: number;
  reanchor: boolean;
  plan_id: string;
  plan_name: string;
  amount_minor: string;
  price_model: PriceModelName;
  tiers: unknown;
  package_size: number | null;
  currency: string;
  interval_unit: IntervalUnit;
  interval_count: number;
}

export async function upcomingCharge(
  sql: SqlRunner,
  subscriptionId: string,
  options: { taxRateBp: number; usageGraceHours: number },
): Promise<UpcomingCharge | NoUpcomingCharge> {
  const [row] = await sql<Row[]>`
    select s.id, s.status, s.timezone, s.billing_anchor, s.next_billing_at, s.cancel_at_period_end,
           s.credit_minor, coalesce(pc.to_quantity, s.quantity) as quantity,
           (pc.id is not null and (fp.interval_unit, fp.interval_count) <> (p.interval_unit, p.interval_count)) as reanchor,
           p.id as plan_id, p.name as plan_name, p.amount_minor, p.price_model, p.tiers, p.package_size,
           p.currency, p.interval_unit, p.interval_count
    from subscriptions s
    join plans fp on fp.id = s.plan_id
    left join plan_changes pc on pc.subscription_id = s.id and pc.status = 'scheduled'
      and pc.effective_at <= s.next_billing_at
    join plans p on p.id = coalesce(pc.to_plan_id, s.plan_id)
    where s.id = ${subscriptionId}`;
  if (!row) return { reason: "not_found", detail: `no subscription ${subscriptionId}` };
  const refusal = notBilled(row);
  if (refusal) return { reason: "not_billed", detail: `subscription ${subscriptionId} ${refusal}` };
  const nextBillingAt = pgInstant(row.next_billing_at!);
  // A scheduled change to another interval re-anchors billing at next_billing_at (apply-scheduled.ts).
  const anchor = row.reanchor ? nextBillingAt : pgInstant(row.billing_anchor!);
  const interval = { unit: row.interval_unit, count: row.interval_count };
  const period = periodContaining(anchor, interval, nextBillingAt, row.timezone);
  const price = priceModelOfColumns(row);
  const [discounts, addons, oneOffs, usage] = await Promise.all([
    liveDiscounts(sql, [row.id]),
    liveAddons(sql, [row.id]),
    waitingOneOffs(sql, [row.id]),
    usagePreview(sql, row.id, options.usageGraceHours),
  ]);
  const lines = periodLines(
    planLine(row.plan_name, price, row.quantity),
    addons.get(row.id) ?? [],
    oneOffs.get(row.id) ?? [],
  );
  const subtotalMinor = subtotalOf(lines);
  const discount = discounts.get(row.id) ?? null;
  const charge = pricePeriods(subtotalMinor, 1, discount, pgInteger(row.credit_minor)).charges[0]!;
  return {
    subscriptionId: row.id,
    planId: row.plan_id,
    quantity: row.quantity,
    currency: row.currency,
    periodStart: period.start,
    periodEnd: period.end,
    lines,
    subtotalMinor,
    charge,
    discount,
    taxMinor: includedTax(charge.amountMinor, options.taxRateBp),
    usage,
  };
}

/** Why the tick will not bill this subscription's next period, or null when it will. */
function notBilled(row: Row): string | null {
  if (row.status === "past_due") return "is past_due: its unpaid charge is collected before any new one";
  if (row.status !== "trialing" && row.status !== "active") return `is ${row.status}: it is not billed`;
  if (row.cancel_at_period_end) return "ends at its period's end: it is not billed again";
  if (row.next_billing_at === null || row.billing_anchor === null) return "has no next billing date";
  return null;
}
