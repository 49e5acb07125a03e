import type { DateTime } from "luxon";
import type { Sql } from "postgres";
import { pgInteger } from "../db/index.js";
import { type BucketTotals, scanBuckets } from "./collection-scans.js";

/**
 * Collections by day, with closed days read back from ops_collection_days. A day closes once its
 * end is more than CLOSED_AFTER behind the billing clock: paid charges and declined attempts carry
 * the billing time of their settlement, so nothing lands in a closed day any more (a late payment
 * is stamped when it is applied). A closed day missing from the table is computed once by the live
 * scans and stored; the open days are scanned live on every read. So a cold 90-day view scans a
 * day or two of charges, not three months. A controllable clock set back behind a stored day
 * leaves that day's totals as they were stored. The stored paid totals are gross: refunds, which
 * the dashboard's Collected is net of, have no column here and are scanned live beside these
 * (collection-scans.ts scanRefunds).
 */

const CLOSED_AFTER = { days: 1 };

interface StoredRow {
  day: string;
  paid_count: string;
  paid_amount_minor: string;
  declined_count: string;
  declined_amount_minor: string;
}

export async function dayTotals(
  sql: Sql,
  days: { starts: readonly DateTime[]; from: DateTime; to: DateTime; timezone: string },
  currency: string,
  now: DateTime,
): Promise<BucketTotals[]> {
  const { starts, from, to, timezone } = days;
  const endOf = (i: number) => starts[i + 1] ?? to;
  const closedBefore = now.minus(CLOSED_AFTER);
  let closed = 0;
  while (closed < starts.length && endOf(closed) <= closedBefore && (starts[closed] ?? to) >= from) closed++;

  const totals: (BucketTotals | undefined)[] = new Array(starts.length).fill(undefined);
  const dayOf = (i: number) => starts[i]?.setZone(timezone).toISODate() ?? "";
  if (closed > 0) {
    const stored = await sql<StoredRow[]>`
      select day::text, paid_count::text, paid_amount_minor::text, declined_count::text,
             declined_amount_minor::text
      from ops_collection_days
      where timezone = ${timezone} and currency = ${currency}
        and day = any(${Array.from({ length: closed }, (_, i) => dayOf(i))}::text[]::date[])`;
    const byDay = new Map(stored.map((row) => [row.day, row]));
    for (let i = 0; i < closed; i++) {
      const row = byDay.get(dayOf(i));
      if (!row) continue;
      totals[i] = {
        paid: { count: pgInteger(row.paid_count), amountMinor: pgInteger(row.paid_amount_minor) },
        declined: { count: pgInteger(row.declined_count), amountMinor: pgInteger(row.declined_amount_minor) },
      };
    }
    const missing = totals.slice(0, closed).flatMap((t, i) => (t ? [] : [i]));
    if (missing.length > 0) {
      const first = missing[0] ?? 0;
      const last = missing.at(-1) ?? 0;
      const scanned = await scanBuckets(
        sql,
        starts.slice(first, last + 1),
        starts[first] ?? from,
        endOf(last),
        currency,
      );
      const fresh = missing.map((i) => ({ i, totals: scanned[i - first] as BucketTotals }));
      for (const { i, totals: t } of fresh) totals[i] = t;
      // Arrays go as text and are cast in SQL, as elsewhere: postgres.js sends text[] reliably.
      await sql`
        insert into ops_collection_days
          (timezone, currency, day, paid_count, paid_amount_minor, declined_count, declined_amount_minor)
        select ${timezone}, ${currency}, d.day, d.paid_count, d.paid_amount, d.declined_count, d.declined_amount
        from unnest(
          ${fresh.map(({ i }) => dayOf(i))}::text[]::date[],
          ${fresh.map(({ totals: t }) => String(t.paid.count))}::text[]::bigint[],
          ${fresh.map(({ totals: t }) => String(t.paid.amountMinor))}::text[]::bigint[],
          ${fresh.map(({ totals: t }) => String(t.declined.count))}::text[]::bigint[],
          ${fresh.map(({ totals: t }) => String(t.declined.amountMinor))}::text[]::bigint[]
        ) as d(day, paid_count, paid_amount, declined_count, declined_amount)
        on conflict do nothing`;
    }
  }
  if (closed < starts.length) {
    const open = await scanBuckets(
      sql,
      starts.slice(closed),
      closed === 0 ? from : (starts[closed] ?? from),
      to,
      currency,
    );
    open.forEach((t, j) => {
      totals[closed + j] = t;
    });
  }
  return totals.map(
    (t) => t ?? { paid: { count: 0, amountMinor: 0 }, declined: { count: 0, amountMinor: 0 } },
  );
}
