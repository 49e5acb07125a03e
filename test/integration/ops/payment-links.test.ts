import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { processChargeBatch } from "../../../src/charging/index.js";
import { charges } from "../../../src/db/schema/index.js";
import { type SnakeCased, snakeJson } from "../../../src/http/ops/snake-json.js";
import { type OpsSnapshot, opsReader, paymentLinkFigures, presetRange } from "../../../src/ops/index.js";
import type { EngineHarness } from "../../support/engine.js";
import { tickAndCheck } from "../../support/tick.js";
import { CARDS as CARD_FIXTURES, createSubscription } from "../charging/fixtures.js";
import { type EnrollmentWorld, startEnrollmentWorld } from "../enrollment/support.js";
import {
  chargeRow,
  dueLinkCharge,
  linkOf,
  linkRow,
  openLink,
  payLink,
  subscribeByLink,
} from "../payment-links/support.js";

/**
 * The ops dashboard's view of collection by payment link, on real link charges (our HTTP server,
 * the simulator's hosted checkout, the billing tick on the shared clock) beside a card charge:
 * one link paid at once, one paid after a reminder, one opened but not paid, one never opened.
 * Each has its own amount, so every sum says which charges it counted.
 */
describe("the ops dashboard on collection by payment link", () => {
  let w: EnrollmentWorld;
  let h: EngineHarness;
  let sentAt: string;
  const AMOUNTS = {
    card: 5_000,
    paidAtOnce: 1_000,
    afterReminder: 2_000,
    openedOnly: 4_000,
    neverOpened: 8_000,
  };
  const decimal = (minor: number) => (minor / 100).toFixed(2);

  beforeAll(async () => {
    w = await startEnrollmentWorld();
    h = w.h;
    h.ctx.config = { ...h.ctx.config, OPS_CACHE_SECONDS: 0 };

    // Day 1: the card subscription and four link subscriptions fall due together.
    const card = await createSubscription(h, { card: CARD_FIXTURES.approves, amountMinor: AMOUNTS.card });
    const byLink = async (minor: number) =>
      (await subscribeByLink(h, { plan: { amount: decimal(minor) } })).subscriptionId;
    const subs = {
      paidAtOnce: await byLink(AMOUNTS.paidAtOnce),
      afterReminder: await byLink(AMOUNTS.afterReminder),
      openedOnly: await byLink(AMOUNTS.openedOnly),
      neverOpened: await byLink(AMOUNTS.neverOpened),
    };
    const ids: Record<keyof typeof subs, string> = {} as never;
    const links: Record<keyof typeof subs, string> = {} as never;
    for (const [name, subscriptionId] of Object.entries(subs) as [keyof typeof subs, string][]) {
      ids[name] = (await dueLinkCharge(h, subscriptionId)).id;
      links[name] = await linkOf(h, ids[name]);
    }
    const [cardCharge] = await h.ctx.db
      .select()
      .from(charges)
      .where(eq(charges.subscriptionId, card.subscriptionId));
    await processChargeBatch(h.ctx, [cardCharge!.id]);
    expect((await chargeRow(h, cardCharge!.id)).status).toBe("paid");

    await payLink(w, links.paidAtOnce);
    await openLink(links.openedOnly);
    sentAt = (await linkRow(h, ids.neverOpened))!.sentAt.toISOString();

    // Day 2: a reminder for each link still unpaid; then one of them is paid.
    h.clock.advance("P1D");
    expect(await tickAndCheck(h.ctx, { batchSize: 10 })).toMatchObject({ linkReminders: 3 });
    await payLink(w, links.afterReminder);
    expect(await chargeRow(h, ids.afterReminder)).toMatchObject({ status: "paid" });
    expect((await linkRow(h, ids.afterReminder))?.remindersSent).toBe(1);
  }, 120_000);
  afterAll(() => w?.close());

  const collectedByLink = { count: 2, amountMinor: AMOUNTS.paidAtOnce + AMOUNTS.afterReminder };
  const collectedByCard = { count: 1, amountMinor: AMOUNTS.card };
  const funnel = {
    sent: {
      count: 4,
      amountMinor: AMOUNTS.paidAtOnce + AMOUNTS.afterReminder + AMOUNTS.openedOnly + AMOUNTS.neverOpened,
    },
    opened: { count: 3 },
    paid: collectedByLink,
    recoveredByReminder: { count: 1, amountMinor: AMOUNTS.afterReminder },
    paidRate: 0.5,
  };
  const awaiting = () => ({
    count: 2,
    oldestSentAt: sentAt,
    byCurrency: [
      {
        currency: "QAR",
        count: 2,
        amountMinor: AMOUNTS.openedOnly + AMOUNTS.neverOpened,
        oldestSentAt: sentAt,
      },
    ],
  });

  it("reads the split by method, the link funnel and what waits on a customer", async () => {
    const range = presetRange("7d", h.clock.now(), h.ctx.config.BILLING_TIMEZONE);
    const s = await opsReader(h.ctx).read(range);
    expect(s.collections.totals.paid).toEqual({
      count: 3,
      amountMinor: AMOUNTS.card + collectedByLink.amountMinor,
    });
    expect(s.paymentLinks).toEqual({
      currency: "QAR",
      collected: { card: collectedByCard, link: collectedByLink },
      funnel,
      awaiting: awaiting(),
    });
    // Over the last 24 hours: only the link paid after its reminder, though it was sent before.
    const day = presetRange("24h", h.clock.now(), h.ctx.config.BILLING_TIMEZONE);
    const lastDay = await opsReader(h.ctx).read(day);
    expect(lastDay.paymentLinks.collected).toEqual({
      card: { count: 0, amountMinor: 0 },
      link: { count: 1, amountMinor: AMOUNTS.afterReminder },
    });
    expect(lastDay.paymentLinks.funnel).toMatchObject({ sent: { count: 0, amountMinor: 0 }, paidRate: null });
    expect(lastDay.paymentLinks.awaiting.count).toBe(2);
    const figures = await paymentLinkFigures(h.ctx.db.$client, day, "QAR");
    expect(figures.paidByLink).toEqual({ count: 1, amountMinor: AMOUNTS.afterReminder });
    expect(figures.awaiting).toEqual(lastDay.paymentLinks.awaiting);
  });

  it("shows the same figures in data.json and on the page", async () => {
    const { key } = await createApiKey(h.ctx.db, { name: "ops links" });
    const login = await fetch(`${w.server.url}/ops/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ key }).toString(),
    });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const get = (path: string) =>
      fetch(`${w.server.url}${path}`, { headers: { cookie }, redirect: "manual" });

    const data = await get("/ops/data.json?range=7d");
    expect(data.status).toBe(200);
    const s = (await data.json()) as SnakeCased<OpsSnapshot>;
    // The read model's figures, with data.json's snake_case keys.
    expect(s.payment_links).toEqual(
      JSON.parse(
        snakeJson({
          currency: "QAR",
          collected: { card: collectedByCard, link: collectedByLink },
          funnel,
          awaiting: awaiting(),
        }),
      ),
    );
    expect(s.payment_links.awaiting.oldest_sent_at).toBe(sentAt);

    const page = await get("/ops?range=7d");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/<script>(?!<\/script>)|style="/);
    expect(html).toContain(
      '<tr data-method="card"><td>Card</td><td class="num">1</td><td class="num">50.00 QAR</td></tr>',
    );
    expect(html).toContain(
      '<tr data-method="link"><td>Payment link</td><td class="num">2</td><td class="num">30.00 QAR</td></tr>',
    );
    expect(html).toContain('<tr><th>Collected</th><th class="num">3</th><th class="num">80.00 QAR</th></tr>');
    const step = (id: string, label: string, n: number, share: string, amount: string) =>
      `<tr data-step="${id}"><td>${label}</td><td class="num">${n}</td><td class="num">${share}</td><td class="num">${amount}</td></tr>`;
    expect(html).toContain(step("sent", "Sent", 4, "100.0 %", "150.00 QAR"));
    expect(html).toContain(step("opened", "Opened", 3, "75.0 %", ""));
    expect(html).toContain(step("paid", "Paid", 2, "50.0 %", "30.00 QAR"));
    expect(html).toContain(step("recovered", "… after a reminder", 1, "25.0 %", "20.00 QAR"));
    expect(html).toContain('Waiting on a customer <span class="count">2</span>');
    // When the oldest link went out, in the billing time zone.
    const sent = DateTime.fromISO(sentAt).setZone(h.ctx.config.BILLING_TIMEZONE).toFormat("yyyy-MM-dd HH:mm");
    expect(html).toContain(
      `<tr data-currency="QAR"><td>QAR</td><td class="num">2</td><td class="num">120.00 QAR</td><td class="nowrap">${sent}</td></tr>`,
    );
  });
});
