/**
 * The benchmark's charges paid by payment link (BENCH_LINK_SUBSCRIPTIONS), run after the card
 * charges are collected and every figure of the charging window is read, so they change none of
 * them: L customers subscribe by link (collection method send_payment_link, no card), one billing
 * tick bills them, a charge worker in this process sends their links (charge.payment_link_created),
 * and each link is paid as a customer's browser pays it: GET of the link on our HTTP server (303
 * to the gateway's hosted checkout), the checkout submitted in the simulator (POST /_sim/pay with
 * the Qatar debit card, which pays one-time checkouts only), and GET of the return URL it sends the
 * browser to, where our server confirms the payment with CheckStatus.
 *
 * Then its exactly-once checks: each link charge paid once (one approved attempt, the checkout's),
 * one SUCCESS checkout payment per link charge in the simulator's ledger, and the ledger's total of
 * card collections and checkout payments equal to the database's paid total to the minor unit.
 */
import type postgres from "postgres";
import { startServer } from "../../src/app/index.js";
import { startChargeWorker } from "../../src/charging/index.js";
import type { EngineContext } from "../../src/context/index.js";
import { createCustomer } from "../../src/customers/index.js";
import { subscribe } from "../../src/enrollment/index.js";
import { EVENT_TYPES } from "../../src/events/index.js";
import { toMinor } from "../../src/money/index.js";
import { createPlan } from "../../src/plans/index.js";
import { runBillingTick } from "../../src/scheduler/index.js";
import type { Check } from "./exactly-once.js";
import { readLedgerPayments } from "./ledger.js";

/** The simulator's Qatar debit card: pays one-time checkouts, refuses to be saved for recurring. */
const QATAR_DEBIT = "4847000000000009";
/** Customers subscribed, and links paid, at once. */
const PARALLEL = 8;
const LINKS_SENT_DEADLINE_MS = 120_000;

export interface LinkRun {
  /** The link charges, all paid through link → checkout → return. */
  chargeIds: string[];
  subscribeSeconds: number;
  /** From the billing tick to the last link sent. */
  sendSeconds: number;
  /** From the first link opened to the last return followed. */
  paySeconds: number;
}

/** Runs `task` for every item, `parallel` at a time. */
export async function eachLimited<T>(
  items: readonly T[],
  parallel: number,
  task: (item: T) => Promise<void>,
) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, lane));
}

/** What a browser does with one payment link; throws unless every step answers as it should. */
export async function payOneLink(simUrl: string, link: string): Promise<void> {
  const opened = await fetch(link, { redirect: "manual" });
  await opened.text();
  const checkoutUrl = opened.headers.get("location");
  if (opened.status !== 303 || !checkoutUrl) {
    throw new Error(`opening ${link} answered ${opened.status}, not a checkout to go to`);
  }
  const submitted = await fetch(`${simUrl}/_sim/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      checkout_url: checkoutUrl,
      card_number: QATAR_DEBIT,
      expiry: "12/30",
      cvv: "123",
      name: "Bench Link",
    }),
  });
  const paid = (await submitted.json()) as { status?: string; redirect_url?: string | null };
  if (paid.status !== "SUCCESS" || !paid.redirect_url) {
    throw new Error(`the checkout of ${link} was not paid: ${JSON.stringify(paid)}`);
  }
  const back = await fetch(paid.redirect_url, { redirect: "manual" });
  await back.text();
  if (back.status !== 200) throw new Error(`the return from the checkout of ${link} answered ${back.status}`);
}

/**
 * Subscribes `count` customers by link and pays every link. `ctx` is this phase's own (open
 * database and queues); its publicUrl is set to the HTTP server started here, which the links,
 * the checkouts' return URLs and the pages are made from.
 */
export async function payByLink(
  ctx: EngineContext,
  sql: postgres.Sql,
  simUrl: string,
  count: number,
  worker: { concurrency: number; ratePerSecond: number },
): Promise<LinkRun> {
  const server = await startServer(ctx, { port: 0, host: "127.0.0.1" });
  ctx.publicUrl = server.url;
  const charging = startChargeWorker(ctx, worker);
  try {
    const subscribeStart = performance.now();
    const plan = await createPlan(
      ctx,
      { name: "Bench by link", amount: "59.00", currency: "QAR", interval: "month" },
      { actor: "bench" },
    );
    const subscriptionIds: string[] = [];
    await eachLimited(
      Array.from({ length: count }, (_, i) => i),
      PARALLEL,
      async (i) => {
        const { customer } = await createCustomer(
          ctx,
          { email: `bench-link-${i}@example.com`, name: `Bench Link ${i}` },
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
    const subscribeSeconds = (performance.now() - subscribeStart) / 1000;

    // The tick bills them (every card subscription is paid or not due before next month) and the
    // worker turns each charge into a link; a tick again now and then, as the scheduler would.
    const sendStart = performance.now();
    let lastTick = Number.NEGATIVE_INFINITY;
    let sent: { charge_id: string; link: string | null }[] = [];
    while (sent.length < count) {
      if (performance.now() - sendStart > LINKS_SENT_DEADLINE_MS) {
        throw new Error(`only ${sent.length} of ${count} payment links sent in time`);
      }
      if (performance.now() - lastTick >= 5_000) {
        await runBillingTick(ctx);
        lastTick = performance.now();
      }
      sent = await sql<{ charge_id: string; link: string | null }[]>`
        select distinct on (c.id) c.id as charge_id, e.data->>'payment_link' as link
        from charges c
        join events e on e.charge_id = c.id and e.type = ${EVENT_TYPES.chargePaymentLinkCreated}
        where c.subscription_id = any(${subscriptionIds}::uuid[]) and c.status = 'awaiting_payment'`;
      if (sent.length < count) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const sendSeconds = (performance.now() - sendStart) / 1000;

    const payStart = performance.now();
    await eachLimited(sent, PARALLEL, async ({ charge_id, link }) => {
      if (!link) throw new Error(`charge.payment_link_created of ${charge_id} carries no payment_link`);
      await payOneLink(simUrl, link);
    });
    const paySeconds = (performance.now() - payStart) / 1000;
    return { chargeIds: sent.map((row) => row.charge_id), subscribeSeconds, sendSeconds, paySeconds };
  } finally {
    await charging.close();
    await server.close();
  }
}

/** `chg_<charge id>_<attempt>` → the charge id. */
const chargeOfOrder = (orderId: string | null) => /^chg_([0-9a-f-]{36})_\d+$/.exec(orderId ?? "")?.[1];

export async function linkChecks(
  simUrl: string,
  db: postgres.Sql,
  chargeIds: readonly string[],
): Promise<Check[]> {
  const l = chargeIds.length;
  const ids = new Set(chargeIds);
  const payments = await readLedgerPayments(simUrl);
  const [row] = await db<
    { charges: string; paid: string; transactions: string; once: string; by_checkout: string }[]
  >`
    select count(*) as charges,
           count(*) filter (where c.status = 'paid') as paid,
           count(distinct c.paid_transaction_id) as transactions,
           count(*) filter (where (select count(*) from charge_attempts a
                                   where a.charge_id = c.id and a.status = 'approved') = 1) as once,
           count(*) filter (where exists (select 1 from charge_attempts a
                                          where a.charge_id = c.id and a.status = 'approved'
                                            and a.channel = 'checkout'
                                            and a.gateway_transaction_id = c.paid_transaction_id)) as by_checkout
    from charges c where c.id = any(${[...chargeIds]}::uuid[])`;
  const paid = Number(row!.paid);
  const once = Number(row!.once);
  const byCheckout = Number(row!.by_checkout);

  const checkouts = payments.filter((p) => p.operation === "checkout" && p.status === "SUCCESS");
  const perCharge = new Map<string, number>();
  for (const p of checkouts) {
    const charge = chargeOfOrder(p.order_id);
    if (charge) perCharge.set(charge, (perCharge.get(charge) ?? 0) + 1);
  }
  const mine = [...perCharge].filter(([charge]) => ids.has(charge));
  const stray = checkouts.length - mine.reduce((sum, [, n]) => sum + n, 0);

  // Every payment the gateway took and kept (card collections and link checkouts) against the
  // database's paid charges, link charges included.
  const kept = payments.filter(
    (p) =>
      p.status === "SUCCESS" &&
      !p.refunded &&
      (p.operation === "GetnewPayment" || p.operation === "checkout"),
  );
  const ledgerTotal = kept.reduce((sum, p) => sum + toMinor(p.amount, p.currency), 0);
  const [total] = await db<{ total: string | null }[]>`
    select sum(amount_minor) as total from charges where status = 'paid'`;
  const dbTotal = Number(total?.total ?? 0);
  return [
    {
      name: "database: each link charge paid once, by its checkout",
      ok:
        Number(row!.charges) === l &&
        paid === l &&
        Number(row!.transactions) === l &&
        once === l &&
        byCheckout === l,
      detail: `${paid} of ${l} paid, ${row!.transactions} transactions, ${once} with one approved attempt, ${byCheckout} by checkout`,
    },
    {
      name: "ledger: one SUCCESS checkout per link charge",
      ok: mine.length === l && mine.every(([, n]) => n === 1) && stray === 0,
      detail: `${checkouts.length} SUCCESS checkouts on ${mine.length} of ${l} link charges, ${stray} other`,
    },
    {
      name: "ledger total = database paid total, links included",
      ok: ledgerTotal === dbTotal,
      detail: `${ledgerTotal} vs ${dbTotal} minor units`,
    },
  ];
}
