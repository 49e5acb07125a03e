import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  attention,
  collections,
  dayRange,
  type OpsRange,
  subscriptionOverview,
  upcoming,
} from "../../../src/ops/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";

/**
 * The read models whose statements were shaped for a million subscriptions (scripts/bench-ops.ts),
 * on rows written by hand: collections put each payment in the bucket of its local day or hour,
 * expiring cards are only the current cards of live subscriptions, and the charge lists take their
 * first few in order while the total counts them all.
 */
describe("ops read models", () => {
  let t: TestDatabase;
  const now = DateTime.fromISO("2025-06-15T12:00:00Z");
  /** Each charge gets a period of its own (one charge per subscription and period). */
  const period = DateTime.fromISO("2020-01-01T00:00:00Z");
  let serial = 0;

  async function subscription(status: "active" | "unpaid" = "active"): Promise<string> {
    const n = ++serial;
    const [row] = await t.sql<{ id: string }[]>`
      with cu as (
        insert into customers (email) values (${`c${n}@example.com`}) returning id
      ), pl as (
        insert into plans (name, amount_minor, currency, interval_unit, interval_count)
        values ('Gold', 10000, 'QAR', 'month', 1) returning id
      )
      insert into subscriptions (customer_id, plan_id, status, billing_anchor, next_billing_at)
      select cu.id, pl.id, ${status}, ${now.toISO()}::timestamptz,
             ${status === "active" ? now.plus({ days: 20 }).toISO() : null}::timestamptz
      from cu, pl
      returning id`;
    return row!.id;
  }

  /** A card saved for the subscription, expiring `days` from now; made its current card if `current`. */
  async function card(subscriptionId: string, days: number, current: boolean): Promise<string> {
    const n = ++serial;
    const [row] = await t.sql<{ id: string }[]>`
      insert into payment_methods (customer_id, subscription_id, kind, token_ciphertext, token_nonce, token_tag,
        token_key_id, token_fingerprint, card_last4, amount_minor, currency, issued_at, expires_at)
      select s.customer_id, s.id, 'recurring', decode(md5(${`c${n}`}), 'hex'),
             substring(decode(md5(${`n${n}`}), 'hex') from 1 for 12), decode(md5(${`t${n}`}), 'hex'), 'k1',
             md5(${`a${n}`}) || md5(${`b${n}`}), '4242', 10000, 'QAR',
             ${now.minus({ months: 5 }).toISO()}::timestamptz, ${now.plus({ days }).toISO()}::timestamptz
      from subscriptions s where s.id = ${subscriptionId}
      returning id`;
    if (current)
      await t.sql`update subscriptions set payment_method_id = ${row!.id} where id = ${subscriptionId}`;
    return row!.id;
  }

  async function charge(
    subscriptionId: string,
    status: "paid" | "uncollectible" | "needs_review",
    at: DateTime,
  ): Promise<string> {
    const n = ++serial;
    const [row] = await t.sql<{ id: string }[]>`
      insert into charges (subscription_id, plan_id, period_start, period_end, amount_minor, currency, status,
        attempt_count, paid_at, paid_transaction_id, updated_at)
      values (${subscriptionId}, (select plan_id from subscriptions where id = ${subscriptionId}), ${period.plus({ months: n }).toISO()}::timestamptz,
              ${period.plus({ months: n + 1 }).toISO()}::timestamptz,
              ${1000 * n}, 'QAR', ${status}, 1, ${status === "paid" ? at.toISO() : null}::timestamptz,
              ${status === "paid" ? `tx-${n}` : null}, ${at.toISO()}::timestamptz)
      returning id`;
    return row!.id;
  }

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.drop());

  it("puts each payment in the bucket of its local day, or hour, in the merchant's zone", async () => {
    const sub = await subscription();
    const zone = "Asia/Qatar"; // UTC+3: a local day starts at 21:00 UTC the day before
    await charge(sub, "paid", DateTime.fromISO("2025-06-10T20:59:59Z")); // 23:59:59 on the 10th
    await charge(sub, "paid", DateTime.fromISO("2025-06-10T21:00:00Z")); // midnight of the 11th
    await charge(sub, "paid", DateTime.fromISO("2025-06-11T20:30:00Z")); // 23:30 on the 11th
    await charge(sub, "paid", DateTime.fromISO("2025-06-12T21:00:00Z")); // the 13th: outside the range
    const days = dayRange("2025-06-10", "2025-06-12", zone) as OpsRange;
    // Long after the range: every day is closed, computed once and stored.
    const later = DateTime.fromISO("2025-07-01T00:00:00Z");
    const byDay = await collections(t.sql, days, "QAR", later);
    expect(byDay.buckets.map((b) => [b.start, b.paid.count])).toEqual([
      ["2025-06-10T00:00:00.000+03:00", 1],
      ["2025-06-11T00:00:00.000+03:00", 2],
      ["2025-06-12T00:00:00.000+03:00", 0],
    ]);
    expect(byDay.totals.paid.count).toBe(3);

    const from = DateTime.fromISO("2025-06-10T23:00:00", { zone });
    const hours: OpsRange = { from, to: from.plus({ hours: 2 }), unit: "hour", timezone: zone };
    const byHour = await collections(t.sql, hours, "QAR", later);
    expect(byHour.buckets.map((b) => b.paid.count)).toEqual([1, 1]);
  });

  it("reads closed days back from their stored totals and scans the open ones live", async () => {
    const sub = await subscription();
    const zone = "Asia/Qatar";
    await charge(sub, "paid", DateTime.fromISO("2025-08-01T09:00:00Z"));
    await charge(sub, "paid", DateTime.fromISO("2025-08-03T09:00:00Z"));
    const days = dayRange("2025-08-01", "2025-08-03", zone) as OpsRange;
    // The 3rd is today and the 2nd ended less than a day ago: both open; the 1st is closed.
    const now = DateTime.fromISO("2025-08-03T12:00:00", { zone });
    const first = await collections(t.sql, days, "QAR", now);
    expect(first.buckets.map((b) => b.paid.count)).toEqual([1, 0, 1]);
    const stored = await t.sql<{ day: string; paid_count: string }[]>`
      select day::text, paid_count::text from ops_collection_days
      where timezone = ${zone} and day between '2025-08-01' and '2025-08-03' order by day`;
    expect(stored).toEqual([{ day: "2025-08-01", paid_count: "1" }]);

    // A row written into the closed day now (which settlement never does) is not read: its stored
    // total is; the open days see new rows at once.
    await charge(sub, "paid", DateTime.fromISO("2025-08-01T10:00:00Z"));
    await charge(sub, "paid", DateTime.fromISO("2025-08-03T10:00:00Z"));
    const second = await collections(t.sql, days, "QAR", now);
    expect(second.buckets.map((b) => b.paid.count)).toEqual([1, 0, 2]);
  });

  it("counts MRR net of live coupons, each as a period's charge takes it", async () => {
    const range = dayRange("2025-06-01", "2025-06-15", "Asia/Qatar") as OpsRange;
    const mrr = async () =>
      (await subscriptionOverview(t.sql, range)).mrr.find((m) => m.currency === "QAR")?.amountMinor ?? 0;
    const before = await mrr();
    const coupon = async (code: string, percent: number) => {
      const [row] = await t.sql<{ id: string }[]>`
        insert into coupons (code, discount_type, percent_off, duration) values (${code}, 'percentage', ${percent}, 'forever')
        returning id`;
      return row!.id;
    };
    const quarter = await coupon("QUARTER", 25);
    const redeem = (subscriptionId: string, couponId: string, ended: boolean) => t.sql`
      insert into subscription_discounts (subscription_id, coupon_id, applied_at, actor, ended_at)
      values (${subscriptionId}, ${couponId}, ${now.toISO()}::timestamptz, 'test', ${ended ? now.toISO() : null}::timestamptz)`;
    // Two paying subscriptions of 100.00 a month: one with a live 25% coupon, one whose coupon ended;
    // an unpaid one with a live coupon counts neither its price nor its discount.
    await redeem(await subscription(), quarter, false);
    await redeem(await subscription(), quarter, true);
    await redeem(await subscription("unpaid"), quarter, false);
    expect((await mrr()) - before).toBe(2 * 10_000 - 2_500);
  });

  it("counts seats in MRR at each plan's price model: per unit and graduated tiers", async () => {
    const range = dayRange("2025-06-01", "2025-06-15", "Asia/Qatar") as OpsRange;
    const mrr = async () =>
      (await subscriptionOverview(t.sql, range)).mrr.find((m) => m.currency === "QAR")?.amountMinor ?? 0;
    const before = await mrr();
    const plan = async (model: string, amountMinor: number, tiers: unknown) => {
      const [row] = await t.sql<{ id: string }[]>`
        insert into plans (name, amount_minor, currency, interval_unit, interval_count, price_model, tiers, billing_mode)
        values ('Seats', ${amountMinor}, 'QAR', 'month', 1, ${model}, ${tiers === null ? null : JSON.stringify(tiers)}::jsonb, 'autosave')
        returning id`;
      return row!.id;
    };
    const seated = async (planId: string, quantity: number) => {
      const moved = await subscription();
      await t.sql`update subscriptions set plan_id = ${planId}, quantity = ${quantity} where id = ${moved}`;
    };
    const perSeat = await plan("per_unit", 2_000, null);
    const tiered = await plan("tiered", 0, [
      { up_to: 5, unit_amount_minor: 1_000, flat_amount_minor: 0 },
      { up_to: null, unit_amount_minor: 500, flat_amount_minor: 0 },
    ]);
    await seated(perSeat, 3);
    await seated(perSeat, 3);
    await seated(tiered, 7);
    // 2 × 3 × 20.00 + (5 × 10.00 + 2 × 5.00)
    expect((await mrr()) - before).toBe(2 * 6_000 + 6_000);
  });

  it("lists the expiring cards that live subscriptions would be charged on, soonest first", async () => {
    const soon = await subscription();
    const soonCard = await card(soon, 10, true);
    const later = await subscription();
    const laterCard = await card(later, 20, true);
    const replaced = await subscription(); // its old card expires first, but it pays with a new one
    await card(replaced, 5, false);
    await card(replaced, 200, true);
    const unpaid = await subscription("unpaid");
    await card(unpaid, 3, true);
    const distant = await subscription();
    await card(distant, 40, true);

    const { expiringCards } = await upcoming(t.sql, now);
    expect(expiringCards.count).toBe(2);
    expect(expiringCards.first.map((c) => [c.paymentMethodId, c.subscriptionId])).toEqual([
      [soonCard, soon],
      [laterCard, later],
    ]);
  });

  it("lists the first twenty held and uncollectible charges in order, with the total of each", async () => {
    const sub = await subscription();
    const start = DateTime.fromISO("2025-05-01T00:00:00Z");
    const uncollectible: string[] = [];
    for (let day = 0; day < 25; day++)
      uncollectible.push(await charge(sub, "uncollectible", start.plus({ days: day })));
    const held = [
      await charge(sub, "needs_review", start.plus({ hours: 5 })),
      await charge(sub, "needs_review", start.plus({ hours: 1 })),
    ];

    const { uncollectibleCharges, heldCharges } = await attention(t.sql);
    expect(uncollectibleCharges.total).toBe(25);
    expect(uncollectibleCharges.items.map((c) => c.chargeId)).toEqual(uncollectible.reverse().slice(0, 20));
    expect(heldCharges.total).toBe(2);
    expect(heldCharges.items.map((c) => c.chargeId)).toEqual([held[1], held[0]]);
  });
});
