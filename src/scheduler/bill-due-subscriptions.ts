import type { DateTime } from "luxon";
import type { PendingQuery, Row } from "postgres";
import { liveAddons } from "../addons/index.js";
import {
  assertTransition,
  type ChargeLine,
  linesWorthStoring,
  type PriceModel,
  type PriceModelName,
  periodLines,
  planLine,
  type SubscriptionState,
  subtotalOf,
} from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInstant, pgInteger, pgTimestamp, type SqlRunner, type SqlTx } from "../db/index.js";
import { EVENT_TYPES, type EventInput, recordEvents } from "../events/index.js";
import { markOneOffsBilled, waitingOneOffs } from "../one-off-charges/index.js";
import {
  createdChargeEvents,
  insertChargeLines,
  liveDiscounts,
  type PricedPeriods,
  priceModelOfColumns,
  pricePeriods,
  recordDiscountUse,
} from "../pricing/index.js";
import { enqueueTokenDeactivation } from "../queue/index.js";
import { type BillingStep, planBilling } from "./billing-plan.js";
import { handOut } from "./hand-out.js";

/**
 * Rule: one charge per subscription and period. Due subscriptions (trialing or active, with
 * next_billing_at reached) are claimed in (next_billing_at, id) order, the order of the partial
 * index subscriptions_due_idx, FOR UPDATE SKIP LOCKED, so concurrent ticks split them. Each batch
 * is billed set-based in one transaction: the periods are planned in memory (planBilling), then
 * one multi-row INSERT of the charges ON CONFLICT (subscription_id, period_start) DO NOTHING (so a
 * tick that runs twice, or two at once, can never bill a period twice), one UPDATE … FROM unnest of
 * the subscriptions' current period and next_billing_at, and their events (recordEvents). The
 * charges are scheduled, due at once and recorded as dispatched; the batch is handed to the queue
 * as soon as it commits (hand-out.ts), so the workers start while the next batch is billed.
 *
 * Each period is priced from the plan's price model at the subscription's quantity (seats), the live coupon (while it covers one more period) and
 * the subscription's credit (pricing/): the discount's periods and the credit left are written in
 * the same transaction. A period priced at zero is created paid, without the gateway, and never
 * handed out; a trialing subscription whose first period costs nothing becomes active with it.
 *
 * past_due subscriptions are not renewed: one open debt per subscription. A subscription with
 * cancel_at_period_end is canceled at its period end instead, and its card token is handed to the
 * token-deactivation queue once the transaction has committed.
 */
export interface BillingCounts {
  chargesCreated: number;
  /** Charges handed to the charge queue right after their batch committed. */
  chargesDispatched: number;
  subscriptionsCanceled: number;
}

interface DueRow {
  id: string;
  customer_id: string;
  status: SubscriptionState;
  timezone: string;
  billing_anchor: string | null;
  next_billing_at: string;
  cancel_at_period_end: boolean;
  payment_method_id: string | null;
  credit_minor: string;
  plan_id: string;
  plan_name: string;
  quantity: number;
  amount_minor: string;
  price_model: PriceModelName;
  tiers: unknown;
  package_size: number | null;
  currency: string;
  interval_unit: "day" | "week" | "month" | "year";
  interval_count: number;
}

const ACTOR = "scheduler";

type BillingCtx = Pick<EngineContext, "db" | "queues" | "logger" | "config">;

export async function billDueSubscriptions(
  ctx: BillingCtx,
  options: { now: DateTime; batchSize: number; maxPeriodsPerSubscription: number },
): Promise<BillingCounts> {
  const counts: BillingCounts = { chargesCreated: 0, chargesDispatched: 0, subscriptionsCanceled: 0 };
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const batch = await ctx.db.$client.begin((tx) => billBatch(tx, ctx, options, after));
    counts.chargesCreated += batch.created.length;
    counts.subscriptionsCanceled += batch.canceled.length;
    counts.chargesDispatched += await handOut(ctx, batch.created);
    for (const paymentMethodId of batch.canceled) {
      await enqueueTokenDeactivation(ctx.queues, { paymentMethodId }).catch((err: unknown) =>
        ctx.logger.error({ err, paymentMethodId }, "could not enqueue the token deactivation"),
      );
    }
    if (batch.rows < options.batchSize) return counts;
    after = batch.cursor;
  }
}

/** The subscriptions due at `now`, as billBatch selects them (work-probe.ts asks it too). */
export function dueSubscriptions(sql: SqlRunner, now: DateTime): PendingQuery<Row[]> {
  return sql`
    from subscriptions s
    join plans p on p.id = s.plan_id
    where s.status in ('trialing', 'active') and s.next_billing_at is not null
      and s.next_billing_at <= ${pgTimestamp(now)}::timestamptz`;
}

async function billBatch(
  tx: SqlTx,
  ctx: BillingCtx,
  options: { now: DateTime; batchSize: number; maxPeriodsPerSubscription: number },
  after: { at: string; id: string } | undefined,
) {
  const { now, batchSize } = options;
  const due = await tx<DueRow[]>`
    select s.id, s.customer_id, s.status, s.timezone, s.billing_anchor, s.next_billing_at,
           s.cancel_at_period_end, s.payment_method_id, s.credit_minor, s.plan_id, p.name as plan_name, s.quantity, p.amount_minor, p.price_model, p.tiers, p.package_size,
           p.currency, p.interval_unit, p.interval_count
    ${dueSubscriptions(tx, now)}
      and (s.next_billing_at, s.id) > (${after?.at ?? "-infinity"}::timestamptz, ${after?.id ?? "00000000-0000-0000-0000-000000000000"}::uuid)
    order by s.next_billing_at, s.id
    limit ${batchSize}
    for update of s skip locked`;

  const charges: { row: DueRow; step: Extract<BillingStep, { kind: "bill" }> }[] = [];
  const canceled: { row: DueRow; at: DateTime }[] = [];
  // Subscriptions renewing together mostly share their billing data (anchor, zone, interval): the
  // periods are planned once per distinct combination, not once per row (time zone math is dear).
  const planned = new Map<string, BillingStep | null>();
  for (const row of due) {
    const key = [
      row.billing_anchor,
      row.next_billing_at,
      row.timezone,
      row.interval_unit,
      row.interval_count,
      row.cancel_at_period_end,
    ].join("|");
    const step = planned.has(key)
      ? planned.get(key)!
      : stepFor(ctx, row, now, options.maxPeriodsPerSubscription);
    planned.set(key, step);
    if (step?.kind === "bill") charges.push({ row, step });
    else if (step?.kind === "cancel") canceled.push({ row, at: step.at });
  }
  const ids = charges.map(({ row }) => row.id);
  const [discounts, addons, oneOffs] = await Promise.all([
    liveDiscounts(tx, ids),
    liveAddons(tx, ids),
    waitingOneOffs(tx, ids),
  ]);
  const models = new Map<string, PriceModel>();
  const priced = charges.map((bill) => {
    const lines = bill.step.periods.map((_, i) =>
      periodLines(
        planLine(bill.row.plan_name, modelOf(models, bill.row), bill.row.quantity),
        addons.get(bill.row.id) ?? [],
        // Waiting one-offs go on the first period billed, once.
        i === 0 ? (oneOffs.get(bill.row.id) ?? []) : [],
      ),
    );
    const price = pricePeriods(
      lines.map(subtotalOf),
      bill.step.periods.length,
      discounts.get(bill.row.id) ?? null,
      pgInteger(bill.row.credit_minor),
    );
    return { ...bill, lines, price };
  });
  const created = await insertCharges(tx, priced, now);
  await advanceSubscriptions(tx, priced);
  await recordDiscountUse(
    tx,
    priced.flatMap(({ price }) => (price.discountUse ? [price.discountUse] : [])),
    now,
  );
  await cancelAtPeriodEnd(tx, canceled);
  await recordEvents(tx, [
    ...created.events,
    ...priced
      .filter(({ row, price }) => row.status === "trialing" && price.charges[0]!.amountMinor === 0)
      .map(
        ({ row }): EventInput => ({
          type: EVENT_TYPES.subscriptionActivated,
          actor: ACTOR,
          occurredAt: now,
          subscriptionId: row.id,
          customerId: row.customer_id,
          data: { reason: "first period paid in full by discount or credit" },
        }),
      ),
    ...canceled.map(
      ({ row, at }): EventInput => ({
        type: EVENT_TYPES.subscriptionCanceled,
        actor: ACTOR,
        occurredAt: now,
        subscriptionId: row.id,
        customerId: row.customer_id,
        data: { reason: "cancel_at_period_end", canceled_at: at.toISO() },
      }),
    ),
  ]);
  const last = due.at(-1);
  return {
    rows: due.length,
    cursor: last && { at: last.next_billing_at, id: last.id },
    created: created.toCollect,
    canceled: canceled.flatMap(({ row }) => (row.payment_method_id ? [row.payment_method_id] : [])),
  };
}

/** The step for one row, or null (logged) when its billing data cannot be planned. */
function stepFor(ctx: Pick<EngineContext, "logger">, row: DueRow, now: DateTime, maxPeriods: number) {
  if (!row.billing_anchor) return null;
  try {
    return planBilling(
      {
        billingAnchor: pgInstant(row.billing_anchor),
        timezone: row.timezone,
        interval: { unit: row.interval_unit, count: row.interval_count },
        nextBillingAt: pgInstant(row.next_billing_at),
        cancelAtPeriodEnd: row.cancel_at_period_end,
      },
      now,
      maxPeriods,
    );
  } catch (err) {
    // One corrupt row must not stop billing for everyone else.
    ctx.logger.error({ err, subscriptionId: row.id }, "cannot plan billing for this subscription; skipped");
    return null;
  }
}

/** The row's plan's price model, read once per plan and batch (tiers are parsed from JSON). */
function modelOf(models: Map<string, PriceModel>, row: DueRow): PriceModel {
  let model = models.get(row.plan_id);
  if (!model) {
    model = priceModelOfColumns(row);
    models.set(row.plan_id, model);
  }
  return model;
}

type PricedBill = {
  row: DueRow;
  step: Extract<BillingStep, { kind: "bill" }>;
  /** Each period's lines; they add up to its price before the discount and the credit. */
  lines: ChargeLine[][];
  price: PricedPeriods;
};

/** One INSERT for every period of the batch; a period already billed is skipped by its unique key. */
async function insertCharges(
  tx: SqlTx,
  bills: readonly PricedBill[],
  now: DateTime,
): Promise<{ toCollect: string[]; events: EventInput[] }> {
  const periods = bills.flatMap(({ row, step, price, lines }) =>
    step.periods.map((period, i) => ({
      row,
      period,
      lines: lines[i]!,
      charge: price.charges[i]!,
      couponId: price.discountUse?.couponId,
    })),
  );
  if (periods.length === 0) return { toCollect: [], events: [] };
  const key = (subscriptionId: string, start: DateTime) => `${subscriptionId} ${start.toMillis()}`;
  const byKey = new Map(periods.map((p) => [key(p.row.id, p.period.start), p]));
  const nowIso = pgTimestamp(now);
  const inserted = await tx<{ id: string; subscription_id: string; period_start: string; status: string }[]>`
    insert into charges (subscription_id, plan_id, quantity, period_start, period_end, amount_minor, currency, status,
                         next_attempt_at, dispatched_at, paid_at, discount_minor, discount_percent,
                         coupon_id, credit_minor)
    select p.subscription_id, p.plan_id, p.quantity, p.period_start, p.period_end, p.amount_minor, p.currency,
           case when p.amount_minor = 0 then 'paid'::charge_status else 'scheduled'::charge_status end,
           case when p.amount_minor = 0 then null else ${nowIso}::timestamptz end,
           case when p.amount_minor = 0 then null else now() end,
           case when p.amount_minor = 0 then ${nowIso}::timestamptz end,
           p.discount_minor, p.discount_percent,
           p.coupon_id, p.credit_minor
    from unnest(
      ${periods.map((p) => p.row.id)}::uuid[], ${periods.map((p) => p.row.plan_id)}::uuid[],
      ${periods.map((p) => p.row.quantity)}::int[],
      ${periods.map((p) => pgTimestamp(p.period.start))}::text[]::timestamptz[],
      ${periods.map((p) => pgTimestamp(p.period.end))}::text[]::timestamptz[], ${periods.map((p) => String(p.charge.amountMinor))}::text[]::bigint[],
      ${periods.map((p) => p.row.currency)}::text[], ${periods.map((p) => String(p.charge.discountMinor))}::text[]::bigint[],
      ${periods.map((p) => (p.charge.discountPercent === null ? null : String(p.charge.discountPercent)))}::text[]::int[],
      ${periods.map((p) => (p.charge.discountApplied ? (p.couponId ?? null) : null))}::text[]::uuid[],
      ${periods.map((p) => String(p.charge.creditAppliedMinor))}::text[]::bigint[]
    ) as p(subscription_id, plan_id, quantity, period_start, period_end, amount_minor, currency, discount_minor,
           discount_percent, coupon_id, credit_minor)
    order by p.subscription_id, p.period_start
    on conflict (subscription_id, period_start) where kind = 'period' do nothing
    returning id, subscription_id, period_start, status`;
  const events = inserted.flatMap((charge): EventInput[] => {
    const {
      row,
      period,
      charge: price,
    } = byKey.get(key(charge.subscription_id, pgInstant(charge.period_start)))!;
    const subjects = {
      actor: ACTOR,
      occurredAt: now,
      subscriptionId: row.id,
      customerId: row.customer_id,
      chargeId: charge.id,
    };
    return createdChargeEvents(subjects, {
      period_index: period.index,
      period_start: period.start.toISO(),
      period_end: period.end.toISO(),
      amount_minor: price.amountMinor,
      currency: row.currency,
      quantity: row.quantity,
      discount_minor: price.discountMinor,
      credit_minor: price.creditAppliedMinor,
    });
  });
  // Lines are stored only where they say more than the plan at quantity 1 (most charges do not);
  // one-offs are billed by the charge that took them, in this same transaction.
  const written = inserted.map((charge) => ({
    chargeId: charge.id,
    lines: byKey.get(key(charge.subscription_id, pgInstant(charge.period_start)))!.lines,
  }));
  await insertChargeLines(
    tx,
    written.filter(({ lines }) => linesWorthStoring(lines)),
  );
  await markOneOffsBilled(
    tx,
    written.flatMap(({ chargeId, lines }) =>
      lines.flatMap((line) =>
        line.kind === "one_off" && line.refId ? [{ oneOffId: line.refId, chargeId }] : [],
      ),
    ),
  );
  return {
    toCollect: inserted.filter((charge) => charge.status !== "paid").map((charge) => charge.id),
    events,
  };
}

/**
 * The last billed period becomes the current one, the credit left is kept, and a trialing
 * subscription whose first period was paid at zero becomes active (a collected charge does that
 * when it is paid).
 */
async function advanceSubscriptions(tx: SqlTx, bills: readonly PricedBill[]): Promise<void> {
  if (bills.length === 0) return;
  const current = bills.map(({ step }) => step.periods.at(-1)!);
  await tx`
    update subscriptions s set
      current_period_start = v.period_start, current_period_end = v.period_end,
      next_billing_at = v.next_billing_at, credit_minor = v.credit_minor,
      status = case when s.status = 'trialing' and v.first_free then 'active'::subscription_status else s.status end
    from unnest(
      ${bills.map(({ row }) => row.id)}::uuid[], ${current.map((p) => pgTimestamp(p.start))}::text[]::timestamptz[],
      ${current.map((p) => pgTimestamp(p.end))}::text[]::timestamptz[],
      ${bills.map(({ step }) => pgTimestamp(step.nextBillingAt))}::text[]::timestamptz[],
      ${bills.map(({ price }) => String(price.creditLeftMinor))}::text[]::bigint[],
      ${bills.map(({ price }) => String(price.charges[0]!.amountMinor === 0))}::text[]::bool[]
    ) as v(id, period_start, period_end, next_billing_at, credit_minor, first_free)
    where s.id = v.id`;
}

async function cancelAtPeriodEnd(tx: SqlTx, rows: readonly { row: DueRow; at: DateTime }[]): Promise<void> {
  if (rows.length === 0) return;
  for (const { row } of rows) assertTransition(row.status, "canceled");
  await tx`
    update subscriptions s set status = 'canceled', canceled_at = v.canceled_at, next_billing_at = null,
      ended_reason = 'cancel_at_period_end'
    from unnest(
      ${rows.map(({ row }) => row.id)}::uuid[], ${rows.map(({ at }) => pgTimestamp(at))}::text[]::timestamptz[]
    ) as v(id, canceled_at)
    where s.id = v.id`;
}
