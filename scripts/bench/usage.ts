/**
 * The benchmark's usage-priced charges (BENCH_USAGE_SUBSCRIPTIONS), run after the payment-link
 * phase, so they change none of the charging window's figures: a `sum` meter, a weekly autosave
 * plan pricing it with a graduated tiered price (TIERS), and U customers subscribed by link
 * (collection method send_payment_link: no card token fixes the amount, so a varying one can be
 * collected). One billing tick bills their first period (the flat period charge), whose links are
 * paid as links.ts pays them, so every subscription is active and settled before its usage counts.
 *
 * Then usage goes through the real HTTP API, POST /v1/usage with an API key, in batches sent a few
 * at once: each subscription's own events (ids `evt-<n>`, the same ids for every subscription,
 * since deduplication is per subscription), every event sent twice (the repeat verbatim, sometimes
 * in the same batch), every third once more with its timestamp moved inside the same period. The
 * phase's billing clock (a running ControllableClock, the simulator's moved along with it through
 * /_sim/clock) is first set to half an hour before the earliest period ends, so the events spread
 * over the whole period, then past the latest period's end plus USAGE_GRACE_HOURS; the billing tick
 * runs twice, then every 5 s as the scheduler would (a tick skips a subscription the charge worker
 * holds locked, collecting its renewal, and a later one bills it), the charge worker in this process
 * sends each usage charge's payment link, and each is paid link → checkout → return.
 *
 * Its checks: exactly one usage charge per subscription and period (the first), for the period of
 * its period charge; each one's quantity and amount equal to what this file computes itself from
 * the events it sent (deduplicated by subscription and id) and the tier table, to the minor unit;
 * each paid once (one approved attempt, its checkout's) and one SUCCESS checkout of its amount for
 * it in the simulator's ledger; the ledger total equal to the database's paid total with the usage
 * charges; and the API's answers: each distinct event accepted once, every repeat a duplicate, as
 * many events stored as distinct ones sent.
 */
import type { DateTime } from "luxon";
import type postgres from "postgres";
import { createApiKey } from "../../src/apikeys/index.js";
import { startServer } from "../../src/app/index.js";
import { startChargeWorker } from "../../src/charging/index.js";
import type { ControllableClock } from "../../src/clock/index.js";
import type { EngineContext } from "../../src/context/index.js";
import { createCustomer } from "../../src/customers/index.js";
import { pgInstant } from "../../src/db/index.js";
import { subscribe } from "../../src/enrollment/index.js";
import { EVENT_TYPES } from "../../src/events/index.js";
import { toMinor } from "../../src/money/index.js";
import { createPlan } from "../../src/plans/index.js";
import { runBillingTick } from "../../src/scheduler/index.js";
import { createMeter } from "../../src/usage/index.js";
import { setUsagePrice } from "../../src/usage-billing/index.js";
import type { Check } from "./exactly-once.js";
import { readLedgerPayments } from "./ledger.js";
import { eachLimited, payOneLink } from "./links.js";

/** Customers subscribed, links paid and usage requests sent, at once. */
const PARALLEL = 8;
const REQUESTS_AT_ONCE = 4;
/** Events per POST /v1/usage. */
const BATCH = 200;
const LINKS_SENT_DEADLINE_MS = 120_000;
const METER = "bench_api_calls";
/** The usage price, graduated: units 1–100 at 0.50 QAR, every unit past 100 at 0.20 QAR. */
const TIERS = [
  { upTo: 100, unitMinor: 50 },
  { upTo: null, unitMinor: 20 },
] as const;

/** The usage price of `quantity` units by TIERS, in minor units: this file's own arithmetic. */
function tieredMinor(quantity: number): number {
  let total = 0;
  let below = 0;
  for (const tier of TIERS) {
    const top = tier.upTo === null ? quantity : Math.min(quantity, tier.upTo);
    if (top > below) total += (top - below) * tier.unitMinor;
    if (tier.upTo === null || quantity <= tier.upTo) break;
    below = tier.upTo;
  }
  return total;
}

interface UsageEvent {
  id: string;
  subscription_id: string;
  meter: string;
  quantity: number;
  timestamp: string;
}

interface Expected {
  periodStart: number;
  periodEnd: number;
  quantity: number;
  amountMinor: number;
}

export interface UsageRun {
  subscriptionIds: string[];
  /** The usage charges, all paid through link → checkout → return. */
  chargeIds: string[];
  /** Per subscription: its first period and what its usage charge must be. */
  expected: Map<string, Expected>;
  /** Distinct events (subscription, id), events sent (repeats included), and requests. */
  events: number;
  sent: number;
  requests: number;
  /** What POST /v1/usage answered, summed over the batches. */
  answers: { accepted: number; duplicates: number; refused: number; reasons: string[] };
  /** Usage charges in the database after the first tick past the grace, and after the second. */
  afterTicks: [number, number];
  graceHours: number;
  subscribeSeconds: number;
  sendSeconds: number;
  /** From moving the clock past the grace to the last usage charge's link sent. */
  billSeconds: number;
  /** From the first usage link opened to the last return followed. */
  paySeconds: number;
}

/** Moves the phase's billing clock, and the simulator's with it, to `to`. */
async function moveClocks(clock: ControllableClock, simUrl: string, to: DateTime): Promise<void> {
  clock.set(to);
  const moved = await fetch(`${simUrl}/_sim/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ set: to.toUTC().toISO() }),
  });
  if (!moved.ok) throw new Error(`POST /_sim/clock answered ${moved.status}: ${await moved.text()}`);
}

type PhaseContext = EngineContext & { clock: ControllableClock };

/**
 * Waits until every subscription of `subscriptionIds` has a charge of `kind` awaiting payment whose
 * link was sent, ticking every 5 s as the scheduler would; returns each charge and its link.
 */
async function waitForLinks(
  ctx: PhaseContext,
  sql: postgres.Sql,
  subscriptionIds: readonly string[],
  kind: "period" | "usage",
): Promise<{ charge_id: string; link: string | null }[]> {
  const start = performance.now();
  let lastTick = performance.now();
  for (;;) {
    // Of period charges, the first period's only (the ticks past the grace renew the subscriptions).
    const sent = await sql<{ charge_id: string; link: string | null }[]>`
      select distinct on (c.id) c.id as charge_id, e.data->>'payment_link' as link
      from charges c
      join events e on e.charge_id = c.id and e.type = ${EVENT_TYPES.chargePaymentLinkCreated}
      where c.subscription_id = any(${[...subscriptionIds]}::uuid[]) and c.kind = ${kind}
        and c.status = 'awaiting_payment'`;
    if (sent.length >= subscriptionIds.length) return sent;
    if (performance.now() - start > LINKS_SENT_DEADLINE_MS) {
      throw new Error(`only ${sent.length} of ${subscriptionIds.length} ${kind} payment links sent in time`);
    }
    if (performance.now() - lastTick >= 5_000) {
      await runBillingTick(ctx);
      lastTick = performance.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function payLinks(simUrl: string, sent: readonly { charge_id: string; link: string | null }[]) {
  await eachLimited(sent, PARALLEL, async ({ charge_id, link }) => {
    if (!link) throw new Error(`charge.payment_link_created of ${charge_id} carries no payment_link`);
    await payOneLink(simUrl, link);
  });
}

/**
 * Subscribes `count` customers by link to a usage-priced plan, sends their usage over HTTP, moves
 * the clock past the grace, bills and pays the usage. `ctx` is this phase's own (open database and
 * queues, and a billing clock it may move); its publicUrl is set to the HTTP server started here.
 */
export async function payUsage(
  ctx: PhaseContext,
  sql: postgres.Sql,
  simUrl: string,
  count: number,
  worker: { concurrency: number; ratePerSecond: number },
): Promise<UsageRun> {
  const server = await startServer(ctx, { port: 0, host: "127.0.0.1" });
  ctx.publicUrl = server.url;
  const charging = startChargeWorker(ctx, worker);
  try {
    const subscribeStart = performance.now();
    await createMeter(ctx, { code: METER, name: "Bench API calls", aggregation: "sum" }, { actor: "bench" });
    const plan = await createPlan(
      ctx,
      {
        name: "Bench metered",
        amount: "25.00",
        currency: "QAR",
        interval: "week",
        billing_mode: "autosave",
      },
      { actor: "bench" },
    );
    await setUsagePrice(ctx, {
      planId: plan.id,
      meter: METER,
      actor: "bench",
      input: {
        price_model: "tiered",
        tiers: TIERS.map((tier) => ({
          up_to: tier.upTo,
          unit_amount: (tier.unitMinor / 100).toFixed(2),
        })),
      },
    });
    const subscriptionIds: string[] = [];
    await eachLimited(
      Array.from({ length: count }, (_, i) => i),
      PARALLEL,
      async (i) => {
        const { customer } = await createCustomer(
          ctx,
          { email: `bench-usage-${i}@example.com`, name: `Bench Usage ${i}` },
          { actor: "bench" },
        );
        const started = await subscribe(ctx, {
          customerId: customer.id,
          planId: plan.id,
          actor: "bench",
          collectionMethod: "send_payment_link",
        });
        subscriptionIds.push(started.subscriptionId);
      },
    );
    // The first tick bills the first periods; their links are paid, as the links phase pays them.
    await runBillingTick(ctx);
    await payLinks(simUrl, await waitForLinks(ctx, sql, subscriptionIds, "period"));
    const subscribeSeconds = (performance.now() - subscribeStart) / 1000;

    const periods = await sql<{ subscription_id: string; period_start: string; period_end: string }[]>`
      select subscription_id, period_start, period_end from charges
      where subscription_id = any(${subscriptionIds}::uuid[]) and kind = 'period' and status = 'paid'`;
    if (periods.length !== count) throw new Error(`${periods.length} of ${count} first periods paid`);
    const periodOf = new Map(
      periods.map((p) => [
        p.subscription_id,
        { start: pgInstant(p.period_start), end: pgInstant(p.period_end) },
      ]),
    );
    const ends = [...periodOf.values()].map((p) => p.end).sort((a, b) => a.toMillis() - b.toMillis());
    const earliestEnd = ends[0]!;
    const latestEnd = ends.at(-1)!;

    // Half an hour before the earliest period ends: the events spread over the whole period.
    const sendAt = earliestEnd.minus({ minutes: 30 });
    await moveClocks(ctx.clock, simUrl, sendAt);
    const lastStamp = sendAt.minus({ minutes: 1 }).toMillis();
    const originals: UsageEvent[] = [];
    const repeats: UsageEvent[] = [];
    const expected = new Map<string, Expected>();
    subscriptionIds.forEach((subscriptionId, i) => {
      const period = periodOf.get(subscriptionId)!;
      const start = period.start.toMillis();
      const span = lastStamp - start;
      const k = 5 + (i % 6);
      const at = (fraction: number) => new Date(start + Math.floor(fraction * span)).toISOString();
      const mine: UsageEvent[] = [];
      for (let j = 0; j < k; j += 1) {
        // Every fifth subscription stays inside the first tier; the others cross into the second.
        const quantity =
          j === k - 1 && i % 3 === 0 ? 0 : i % 5 === 0 ? 1 + ((i + 3 * j) % 7) : 5 + ((i * 37 + j * 53) % 61);
        const event = {
          id: `evt-${j}`,
          subscription_id: subscriptionId,
          meter: METER,
          quantity,
          timestamp: at((j + 1) / (k + 1)),
        };
        mine.push(event);
        repeats.push({ ...event });
        if (j % 3 === 1) repeats.push({ ...event, timestamp: at((j + 1.5) / (k + 1)) });
      }
      originals.push(...mine);
      // The bench's own reckoning: the events deduplicated by id (within the subscription), summed.
      const distinct = new Map(mine.map((event) => [event.id, event.quantity]));
      const quantity = [...distinct.values()].reduce((sum, q) => sum + q, 0);
      expected.set(subscriptionId, {
        periodStart: start,
        periodEnd: period.end.toMillis(),
        quantity,
        amountMinor: tieredMinor(quantity),
      });
    });
    // The repeats in reverse after the originals: the first come in the originals' last batch,
    // the rest in later batches, some of them sent at the same time as their originals.
    const sends = [...originals, ...repeats.reverse()];
    const batches: UsageEvent[][] = [];
    for (let first = 0; first < sends.length; first += BATCH) batches.push(sends.slice(first, first + BATCH));
    const { key } = await createApiKey(ctx.db, { name: "bench-usage" });
    const answers = { accepted: 0, duplicates: 0, refused: 0, reasons: [] as string[] };
    const sendStart = performance.now();
    await eachLimited(batches, REQUESTS_AT_ONCE, async (events) => {
      const reply = await fetch(`${server.url}/v1/usage`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ events }),
      });
      const body = (await reply.json()) as {
        accepted: number;
        duplicates: number;
        refused: number;
        results: { id: string; status: string; code?: string; reason?: string }[];
      };
      if (reply.status !== 200)
        throw new Error(`POST /v1/usage answered ${reply.status}: ${JSON.stringify(body)}`);
      answers.accepted += body.accepted;
      answers.duplicates += body.duplicates;
      answers.refused += body.refused;
      for (const result of body.results) {
        if (result.status === "refused" && answers.reasons.length < 3) {
          answers.reasons.push(`${result.id}: ${result.code} ${result.reason}`);
        }
      }
    });
    const sendSeconds = (performance.now() - sendStart) / 1000;

    // Past the latest period's end plus the grace: every first period's usage is due.
    const graceHours = ctx.config.USAGE_GRACE_HOURS;
    const billStart = performance.now();
    await moveClocks(ctx.clock, simUrl, latestEnd.plus({ hours: graceHours, minutes: 1 }));
    const usageCharges = async () => {
      const [row] = await sql<{ n: string }[]>`
        select count(*) as n from charges
        where subscription_id = any(${subscriptionIds}::uuid[]) and kind = 'usage'`;
      return Number(row?.n ?? 0);
    };
    await runBillingTick(ctx);
    const afterFirst = await usageCharges();
    await runBillingTick(ctx);
    const afterSecond = await usageCharges();
    const sent = await waitForLinks(ctx, sql, subscriptionIds, "usage");
    const billSeconds = (performance.now() - billStart) / 1000;

    const payStart = performance.now();
    await payLinks(simUrl, sent);
    const paySeconds = (performance.now() - payStart) / 1000;
    return {
      subscriptionIds,
      chargeIds: sent.map((row) => row.charge_id),
      expected,
      events: originals.length,
      sent: sends.length,
      requests: batches.length,
      answers,
      afterTicks: [afterFirst, afterSecond],
      graceHours,
      subscribeSeconds,
      sendSeconds,
      billSeconds,
      paySeconds,
    };
  } finally {
    await charging.close();
    await server.close();
  }
}

/** `chg_<charge id>_<attempt>` → the charge id. */
const chargeOfOrder = (orderId: string | null) => /^chg_([0-9a-f-]{36})_\d+$/.exec(orderId ?? "")?.[1];

export async function usageChecks(simUrl: string, db: postgres.Sql, run: UsageRun): Promise<Check[]> {
  const u = run.subscriptionIds.length;
  const payments = await readLedgerPayments(simUrl);

  // One usage charge per subscription and period, for the first period, with its lines.
  const usage = await db<
    {
      id: string;
      subscription_id: string;
      start_ms: number;
      end_ms: number;
      amount_minor: string;
      status: string;
      line_quantity: string | null;
      line_amount: string | null;
      lines: string;
    }[]
  >`
    select c.id, c.subscription_id, (extract(epoch from c.period_start) * 1000)::float8 as start_ms,
           (extract(epoch from c.period_end) * 1000)::float8 as end_ms, c.amount_minor, c.status,
           sum(l.quantity) as line_quantity, sum(l.amount_minor) as line_amount, count(l.charge_id) as lines
    from charges c left join charge_lines l on l.charge_id = c.id
    where c.kind = 'usage'
    group by c.id`;
  const mine = usage.filter((row) => run.expected.has(row.subscription_id));
  const perPeriod = new Map<string, number>();
  for (const row of mine) {
    const key = `${row.subscription_id} ${row.start_ms}`;
    perPeriod.set(key, (perPeriod.get(key) ?? 0) + 1);
  }
  const onFirstPeriod = mine.filter((row) => {
    const expected = run.expected.get(row.subscription_id)!;
    return row.start_ms === expected.periodStart && row.end_ms === expected.periodEnd;
  }).length;
  const subscriptions = new Set(mine.map((row) => row.subscription_id)).size;

  // Each amount against the bench's own pricing of the events it sent.
  let matching = 0;
  let expectedTotal = 0;
  let chargedTotal = 0;
  const mismatches: string[] = [];
  for (const row of mine) {
    const expected = run.expected.get(row.subscription_id)!;
    const amount = Number(row.amount_minor);
    chargedTotal += amount;
    const ok =
      amount === expected.amountMinor &&
      Number(row.line_amount) === expected.amountMinor &&
      Number(row.line_quantity) === expected.quantity &&
      Number(row.lines) === 1;
    if (ok) matching += 1;
    else if (mismatches.length < 3) {
      mismatches.push(
        `${row.id}: ${amount} for ${row.line_quantity} units, expected ${expected.amountMinor} for ${expected.quantity}`,
      );
    }
  }
  for (const expected of run.expected.values()) expectedTotal += expected.amountMinor;

  // Each paid once, by its checkout.
  const [row] = await db<{ paid: string; transactions: string; once: string; by_checkout: string }[]>`
    select count(*) filter (where c.status = 'paid') as paid,
           count(distinct c.paid_transaction_id) as transactions,
           count(*) filter (where (select count(*) from charge_attempts a
                                   where a.charge_id = c.id and a.status = 'approved') = 1) as once,
           count(*) filter (where exists (select 1 from charge_attempts a
                                          where a.charge_id = c.id and a.status = 'approved'
                                            and a.channel = 'checkout'
                                            and a.gateway_transaction_id = c.paid_transaction_id)) as by_checkout
    from charges c where c.id = any(${mine.map((r) => r.id)}::uuid[])`;
  const paid = Number(row!.paid);
  const once = Number(row!.once);
  const byCheckout = Number(row!.by_checkout);

  // The ledger: one SUCCESS checkout of the charge's amount per usage charge, none on another.
  const amountOf = new Map(usage.map((r) => [r.id, Number(r.amount_minor)]));
  const checkouts = payments.filter((p) => p.operation === "checkout" && p.status === "SUCCESS");
  const perCharge = new Map<string, number>();
  let rightAmount = 0;
  for (const p of checkouts) {
    const charge = chargeOfOrder(p.order_id);
    if (!charge || !amountOf.has(charge)) continue;
    perCharge.set(charge, (perCharge.get(charge) ?? 0) + 1);
    if (toMinor(p.amount, p.currency) === amountOf.get(charge)) rightAmount += 1;
  }
  const onMine = mine.filter((r) => perCharge.get(r.id) === 1).length;
  const onUsage = [...perCharge.values()].reduce((sum, n) => sum + n, 0);

  // Every payment the gateway took and kept against the database's paid charges, usage included.
  const kept = payments.filter(
    (p) =>
      p.status === "SUCCESS" &&
      !p.refunded &&
      (p.operation === "GetnewPayment" || p.operation === "checkout"),
  );
  const ledgerTotal = kept.reduce((sum, p) => sum + toMinor(p.amount, p.currency), 0);
  const [total] = await db<{ total: string | null; usage: string | null }[]>`
    select sum(amount_minor) as total, sum(amount_minor) filter (where kind = 'usage') as usage
    from charges where status = 'paid'`;
  const dbTotal = Number(total?.total ?? 0);

  const [stored] = await db<{ events: string; keys: string }[]>`
    select (select count(*) from usage_events where subscription_id = any(${run.subscriptionIds}::uuid[])) as events,
           (select count(*) from usage_event_keys where subscription_id = any(${run.subscriptionIds}::uuid[])) as keys`;
  const { accepted, duplicates, refused, reasons } = run.answers;
  return [
    {
      name: "usage API: each event accepted once, repeats duplicate",
      ok:
        accepted === run.events &&
        duplicates === run.sent - run.events &&
        refused === 0 &&
        Number(stored!.events) === run.events &&
        Number(stored!.keys) === run.events,
      detail: `${run.sent} sent in ${run.requests} requests: ${accepted} accepted, ${duplicates} duplicate, ${refused} refused${reasons.length ? ` (${reasons.join("; ")})` : ""}; ${stored!.events} events and ${stored!.keys} keys stored of ${run.events} distinct`,
    },
    {
      name: "database: one usage charge per subscription and period",
      ok:
        mine.length === u &&
        subscriptions === u &&
        [...perPeriod.values()].every((n) => n === 1) &&
        onFirstPeriod === u &&
        // A tick skips the subscriptions a worker holds locked (skip locked): a later one bills them.
        run.afterTicks[1] <= u &&
        run.chargeIds.length === u,
      detail: `${mine.length} usage charges on ${subscriptions} of ${u} subscriptions, ${onFirstPeriod} for the first period; ${run.afterTicks[0]} after the first tick, ${run.afterTicks[1]} after the second`,
    },
    {
      name: "usage charges: amount = the bench's own pricing",
      ok: matching === u && mine.length === u && chargedTotal === expectedTotal,
      detail: `${matching} of ${u} equal in quantity and amount, ${chargedTotal} vs ${expectedTotal} minor units${mismatches.length ? `; ${mismatches.join("; ")}` : ""}`,
    },
    {
      name: "database: each usage charge paid once, by its checkout",
      ok: paid === u && Number(row!.transactions) === u && once === u && byCheckout === u,
      detail: `${paid} of ${u} paid, ${row!.transactions} transactions, ${once} with one approved attempt, ${byCheckout} by checkout`,
    },
    {
      name: "ledger: one SUCCESS checkout per usage charge, amounts",
      ok: onMine === u && onUsage === u && rightAmount === u,
      detail: `${onUsage} SUCCESS checkouts on usage charges, ${onMine} of ${u} once each, ${rightAmount} of the charge's amount`,
    },
    {
      name: "ledger total = database paid total, usage included",
      ok: ledgerTotal === dbTotal && Number(total?.usage ?? 0) === expectedTotal,
      detail: `${ledgerTotal} vs ${dbTotal} minor units (usage ${total?.usage ?? 0})`,
    },
  ];
}
