import type { DateTime } from "luxon";
import { liveAddons } from "../addons/index.js";
import { noticeWindow, periodLines, planLine, subtotalOf } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInteger, type SqlTx } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import { waitingOneOffs } from "../one-off-charges/index.js";
import { liveDiscounts, priceModelOfColumns, pricePeriods } from "../pricing/index.js";
import { noticeEvent } from "./notice-event.js";
import { alreadyNoticed, type Cursor, lockUpcoming, type NoticeKind, type UpcomingRow } from "./upcoming.js";

/**
 * Notices before money moves, once per subscription and period (upcoming.ts says which): the
 * trial's end, always, TRIAL_ENDING_NOTICE_DAYS ahead (card networks require a notice before a
 * trial converts to paid), and each renewal RENEWAL_NOTICE_DAYS ahead unless that is 0. Each batch
 * of candidates is priced and recorded in one transaction with recordEvents, which writes the
 * customer's message and the merchant's webhook with them. The amount is the charge the scheduler
 * will create: the plan's price less the live discount and the credit, by the same pricing.
 */
export interface UpcomingNoticeOptions {
  now: DateTime;
  renewalDays: number;
  trialDays: number;
  /** Subscriptions per transaction. */
  limit: number;
}

export interface UpcomingNoticeCounts {
  trialEnding: number;
  renewalUpcoming: number;
}

export async function recordUpcomingNotices(
  ctx: Pick<EngineContext, "db" | "logger">,
  options: UpcomingNoticeOptions,
): Promise<UpcomingNoticeCounts> {
  const counts = {
    trialEnding: await recordKind(ctx, "trial_ending", options.trialDays, options),
    renewalUpcoming: await recordKind(ctx, "renewal_upcoming", options.renewalDays, options),
  };
  if (counts.trialEnding + counts.renewalUpcoming > 0) {
    ctx.logger.info({ component: "notices", ...counts }, "notices before money moves recorded");
  }
  return counts;
}

async function recordKind(
  ctx: Pick<EngineContext, "db">,
  kind: NoticeKind,
  days: number,
  { now, limit }: UpcomingNoticeOptions,
): Promise<number> {
  const window = noticeWindow(now, days);
  if (!window) return 0;
  let recorded = 0;
  let after: Cursor | undefined;
  for (;;) {
    const batch = await ctx.db.$client.begin(async (tx) => {
      const rows = await lockUpcoming(tx, kind, window, { limit, after });
      const done = await alreadyNoticed(tx, kind, rows);
      const fresh = rows.filter((row) => !done.has(row.id));
      const amounts = await chargeAmounts(tx, fresh);
      await recordEvents(
        tx,
        fresh.map((row) => noticeEvent(kind, row, amounts.get(row.id) as number, now)),
      );
      const last = rows.at(-1);
      return {
        rows: rows.length,
        recorded: fresh.length,
        cursor: last && { at: last.next_billing_at, id: last.id },
      };
    });
    recorded += batch.recorded;
    if (batch.rows < limit) return recorded;
    after = batch.cursor;
  }
}

/**
 * What the next charge of each subscription will be, priced as bill-due-subscriptions prices it:
 * the same lines (the plan at its quantity, its add-ons, the one-offs waiting for it), then the
 * discount and the credit.
 */
async function chargeAmounts(tx: SqlTx, rows: readonly UpcomingRow[]): Promise<Map<string, number>> {
  const ids = rows.map((row) => row.id);
  const [discounts, addons, oneOffs] = await Promise.all([
    liveDiscounts(tx, ids),
    liveAddons(tx, ids),
    waitingOneOffs(tx, ids),
  ]);
  return new Map(
    rows.map((row) => {
      const plan = priceModelOfColumns(row);
      const lines = periodLines(
        planLine(row.plan_name, plan, row.quantity),
        addons.get(row.id) ?? [],
        oneOffs.get(row.id) ?? [],
      );
      const priced = pricePeriods(
        subtotalOf(lines),
        1,
        discounts.get(row.id) ?? null,
        pgInteger(row.credit_minor),
      );
      return [row.id, priced.charges[0]!.amountMinor];
    }),
  );
}
