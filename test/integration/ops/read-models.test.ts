import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  attention,
  collections,
  dayRange,
  type OpsRange,
  subscriptionOverview,
  upcoming,
  usageRevenue,
} from "../../../src/ops/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";

/**
 * The read models whose statements were shaped for a million subscriptions (scripts/bench-ops.ts),
 * on rows written by hand: collections put each payment in the bucket of its local day or hour,
 * expiring cards are only the current cards of live subscriptions, the charge lists take their
 * first few in order while the total counts them all, MRR counts add-ons at their plan's interval,
 * and usage revenue is the usage charges paid in the range, apart.
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

  it("counts live add-ons in MRR at their own price and quantity, over their plan's interval", async () => {
    const range = dayRange("2025-06-01", "2025-06-15", "Asia/Qatar") as OpsRange;
    const mrr = async () =>
      (await subscriptionOverview(t.sql, range)).mrr.find((m) => m.currency === "QAR")?.amountMinor ?? 0;
    const before = await mrr();
    const addon = async (code: string, model: string, amountMinor: number) => {
      const [row] = await t.sql<{ id: string }[]>`
        insert into addons (code, name, amount_minor, currency, price_model)
        values (${code}, ${code}, ${amountMinor}, 'QAR', ${model}) returning id`;
      return row!.id;
    };
    const attach = (subscriptionId: string, addonId: string, quantity: number, removed = false) => t.sql`
      insert into subscription_addons (subscription_id, addon_id, quantity, added_at, actor, removed_at)
      values (${subscriptionId}, ${addonId}, ${quantity}, ${now.toISO()}::timestamptz, 'test',
              ${removed ? now.toISO() : null}::timestamptz)`;
    const seats = await addon("seats", "per_unit", 1_500); // 15.00 a seat, each period
    const support = await addon("support", "flat", 2_000);

    // A monthly plan of 100.00 with 2 seats: 100.00 + 2 × 15.00 a month.
    const monthly = await subscription();
    await attach(monthly, seats, 2);
    expect((await mrr()) - before).toBe(13_000);

    // Two on a yearly plan of 1,200.00 with support: an add-on has no interval of its own, so it is
    // billed yearly with its plan, 20.00 ÷ 12 a month each, summed as fractions and rounded once:
    // 2 × 100.00 + 2 × 1.666… = 203.33 (rounded per subscription it would be 203.34).
    const [yearlyPlan] = await t.sql<{ id: string }[]>`
      insert into plans (name, amount_minor, currency, interval_unit, interval_count)
      values ('Gold yearly', 120000, 'QAR', 'year', 1) returning id`;
    for (let i = 0; i < 2; i++) {
      const yearly = await subscription();
      await t.sql`update subscriptions set plan_id = ${yearlyPlan!.id} where id = ${yearly}`;
      await attach(yearly, support, 1);
    }
    expect((await mrr()) - before).toBe(13_000 + 20_333);

    // Neither a removed add-on nor one on an unpaid subscription counts; the plan of the first still does.
    await attach(await subscription(), support, 1, true);
    await attach(await subscription("unpaid"), support, 1);
    expect((await mrr()) - before).toBe(13_000 + 20_333 + 10_000);

    // A 10% coupon takes its share of the add-ons too, off the period's whole price:
    // 100.00 + 2 × 15.00 + 20.00 = 150.00, less 15.00.
    const [coupon] = await t.sql<{ id: string }[]>`
      insert into coupons (code, discount_type, percent_off, duration) values ('TENTH', 'percentage', 10, 'forever')
      returning id`;
    const discounted = await subscription();
    await attach(discounted, seats, 2);
    await attach(discounted, support, 1);
    await t.sql`
      insert into subscription_discounts (subscription_id, coupon_id, applied_at, actor)
      values (${discounted}, ${coupon!.id}, ${now.toISO()}::timestamptz, 'test')`;
    expect((await mrr()) - before).toBe(13_000 + 20_333 + 10_000 + 13_500);
  });

  it("reads usage revenue apart: usage charges paid in the range, per currency", async () => {
    const sub = await subscription();
    const bill = async (
      kind: "usage" | "period",
      status: "paid" | "scheduled",
      at: DateTime,
      amountMinor: number,
      currency = "QAR",
    ) => {
      const n = ++serial;
      await t.sql`
        insert into charges (subscription_id, plan_id, kind, period_start, period_end, amount_minor, currency, status,
          attempt_count, paid_at, paid_transaction_id)
        values (${sub}, (select plan_id from subscriptions where id = ${sub}), ${kind},
                ${period.plus({ months: n }).toISO()}::timestamptz, ${period.plus({ months: n + 1 }).toISO()}::timestamptz,
                ${amountMinor}, ${currency}, ${status}, ${status === "paid" ? 1 : 0},
                ${status === "paid" ? at.toISO() : null}::timestamptz, ${status === "paid" ? `usage-${n}` : null})`;
    };
    const days = dayRange("2025-10-01", "2025-10-31", "Asia/Qatar") as OpsRange; // from 09-30T21:00Z
    await bill("usage", "paid", DateTime.fromISO("2025-09-30T21:00:00Z"), 1_250); // the range's first instant
    await bill("usage", "paid", DateTime.fromISO("2025-10-20T08:00:00Z"), 3_400);
    await bill("usage", "paid", DateTime.fromISO("2025-10-21T08:00:00Z"), 999, "USD");
    await bill("usage", "paid", DateTime.fromISO("2025-09-30T20:59:59Z"), 7_000); // the day before, local time
    await bill("usage", "paid", DateTime.fromISO("2025-10-31T21:00:00Z"), 7_000); // the day after the range
    await bill("usage", "scheduled", DateTime.fromISO("2025-10-20T08:00:00Z"), 7_000); // not paid yet
    await bill("period", "paid", DateTime.fromISO("2025-10-10T08:00:00Z"), 10_000); // a period is not usage

    const revenue = await usageRevenue(t.sql, days);
    expect(revenue.paid).toEqual([
      { currency: "QAR", count: 2, amountMinor: 4_650 },
      { currency: "USD", count: 1, amountMinor: 999 },
    ]);
    // Collected counts every paid charge: the usage paid is a part of it, beside the period's charge.
    const later = DateTime.fromISO("2025-12-01T00:00:00Z");
    const { totals } = await collections(t.sql, days, "QAR", later);
    expect(totals.paid).toEqual({ count: 3, amountMinor: 10_000 + 4_650 });
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
