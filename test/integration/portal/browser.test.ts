import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { paymentLinkUrl } from "../../../src/charging/index.js";
import { chargeAttempts } from "../../../src/db/schema/index.js";
import { toDecimalString } from "../../../src/money/index.js";
import { launchChromium } from "../../support/chromium.js";
import {
  CARDS,
  type EnrollmentWorld,
  eventually,
  ledgerOf,
  startEnrollmentWorld,
  subscriptionOf,
} from "../enrollment/support.js";
import { chargeOf, customerPayingByLink, linkFor, payingCustomer } from "./support.js";

/**
 * The customer portal in headless Chromium, as a customer uses it: the link is clicked in an e-mail
 * (a page on another site), the card is updated on the gateway's hosted checkout (the simulator's
 * page, typed into), and the subscription is canceled at period end after the confirmation; the
 * Arabic page is right to left; a charge awaiting payment by link is paid from the portal's
 * "Pay now" on the hosted checkout, in English and in Arabic. No script error on any page.
 */
let world: EnrollmentWorld;
let browser: Browser;

beforeAll(async () => {
  world = await startEnrollmentWorld();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const MAIL = "http://mail.example";

/** A webmail page on another site holding the link, clicked as a customer clicks it. */
async function clickFromMail(page: Page, link: string): Promise<void> {
  await page.route(`${MAIL}/**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><p>Your account: <a id="portal-link" href="${link}">open</a></p>`,
    }),
  );
  await page.goto(`${MAIL}/inbox`);
  await page.click("#portal-link");
  // The link's page: nothing is used up until the customer presses its one button.
  await page.click("#open-account");
}

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

/**
 * Opens the customer's portal from an e-mail in a fresh browser, runs `use` on its page, and
 * expects no script errors on the way.
 */
async function inPortal(customerId: string, use: (page: Page) => Promise<void>): Promise<void> {
  const link = await linkFor(world, customerId);
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = watchErrors(page);
  try {
    await clickFromMail(page, link.url);
    await page.waitForURL((url) => url.origin === world.server.url && url.pathname === "/portal");
    await use(page);
    expect(errors, errors.join("\n")).toEqual([]);
  } finally {
    await context.close();
  }
}

it("opens from an e-mail, updates the card through the hosted checkout, and cancels at period end", async () => {
  const subscription = await payingCustomer(world, { name: "Mariam" });
  await inPortal(subscription.customerId, async (page) => {
    expect(await page.textContent("h1")).toBe("Hello, Mariam");
    const card = page.locator(`article[data-subscription="${subscription.id}"]`);
    expect(await card.getAttribute("data-status")).toBe("active");

    await card.locator('button[data-action="card"]').click();
    await page.waitForURL((url) => url.href.startsWith(`${world.h.sim.url}/checkout/`));
    await page.fill("#card_number", "5555 5555 5555 4444");
    await page.fill("#expiry", "11/31");
    await page.fill("#cvv", "123");
    await page.fill("#name", "Mariam");
    await page.click("#pay");
    // The gateway sends the browser back to us; the engine verifies the payment (CheckStatus).
    await page.waitForURL((url) => url.href.startsWith(world.server.url), { timeout: 20_000 });
    await page.waitForSelector("main.success");
    const switched = await eventually(async () => {
      const row = await subscriptionOf(world.h, subscription.id);
      return row.paymentMethodId !== subscription.paymentMethodId ? row : undefined;
    });
    expect(switched.paymentMethodId).not.toBeNull();
    expect(switched.status).toBe("active");

    // Back in the portal by the result page's link (the session cookie is still there), cancel
    // with the confirmation.
    await page.click("p.back a");
    await page.waitForURL((url) => url.origin === world.server.url && url.pathname === "/portal");
    await card.locator('a[data-action="cancel"]').click();
    await page.waitForSelector("#confirm-cancel");
    expect(await page.textContent("#confirm-cancel p")).toContain("stays active until 15 Feb 2026");
    expect((await subscriptionOf(world.h, subscription.id)).cancelAtPeriodEnd).toBe(false);
    await page.click("#confirm-yes");
    await page.waitForSelector("#notice");
    expect(await page.textContent("#notice")).toBe(
      "Your subscription will end at the end of the current period.",
    );
    expect(await card.locator("[data-pending-cancel]").textContent()).toContain("15 Feb 2026");
    expect(await subscriptionOf(world.h, subscription.id)).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: true,
    });
  });
});

it("shows the Arabic page right to left, and the toggle switches it", async () => {
  const subscription = await payingCustomer(world, { name: "ليلى", language: "ar" });
  await inPortal(subscription.customerId, async (page) => {
    expect([await page.getAttribute("html", "lang"), await page.getAttribute("html", "dir")]).toEqual([
      "ar",
      "rtl",
    ]);
    expect(await page.textContent("h2")).toBe("الاشتراكات");
    // Mirrored: labels sit at the right of their values, the text starts at the right edge, and an
    // amount still reads left to right.
    const layout = await page.evaluate(() => {
      const label = document.querySelector("article dt")!.getBoundingClientRect();
      const value = document.querySelector("article dd")!.getBoundingClientRect();
      const heading = document.querySelector("article h3")!.getBoundingClientRect();
      const badge = document.querySelector("article h3 .status")!.getBoundingClientRect();
      const amount = document.querySelector("article dd .num") as HTMLElement;
      return {
        labelRightOfValue: label.left > value.right,
        badgeInStartHalf: badge.left > heading.left + heading.width / 2,
        amountDirection: getComputedStyle(amount).direction,
        amountText: amount.textContent,
      };
    });
    expect(layout).toEqual({
      labelRightOfValue: true,
      badgeInStartHalf: true,
      amountDirection: "ltr",
      amountText: "100.00 QAR",
    });
    await page.click("#language-toggle");
    await page.waitForURL(`${world.server.url}/portal?lang=en`);
    expect(await page.getAttribute("html", "dir")).toBe("ltr");
  });
});

const PAY_BY_LINK = [
  {
    language: "en",
    name: "Nadia",
    method: "Pays by payment link",
    saveCard: "Save a card for automatic payments",
    payNow: "Pay now",
    paid: "Paid, thank you",
    chargePaid: "Paid",
  },
  {
    language: "ar",
    name: "نادية",
    method: "يُدفع عبر رابط الدفع",
    saveCard: "حفظ بطاقة للدفع التلقائي",
    payNow: "ادفع الآن",
    paid: "تم الدفع، شكراً لك",
    chargePaid: "مدفوع",
  },
] as const;

it.each(PAY_BY_LINK)(
  "pays a charge awaiting payment from the portal's Pay now, on the hosted checkout ($language)",
  async (words) => {
    const { subscription, charge } = await customerPayingByLink(world, {
      name: words.name,
      language: words.language,
    });
    const link = new URL(paymentLinkUrl(world.h.ctx, charge.id));
    const amount = `${toDecimalString(charge.amountMinor, charge.currency)} ${charge.currency}`;
    await inPortal(subscription.customerId, async (page) => {
      expect([await page.getAttribute("html", "lang"), new URL(page.url()).searchParams.get("lang")]).toEqual(
        [words.language, words.language],
      );
      const card = page.locator(`article[data-subscription="${subscription.id}"]`);
      expect(await card.locator("dd[data-collection-method]").textContent()).toBe(words.method);
      expect(await card.locator('button[data-action="card"]').textContent()).toBe(words.saveCard);

      const due = page.locator(`#due tr[data-due-charge="${charge.id}"]`);
      expect(await due.locator("td.amount").textContent()).toBe(amount);
      const pay = due.locator('a[data-action="pay"]');
      expect(await pay.textContent()).toBe(words.payNow);
      expect(await pay.getAttribute("href")).toBe(link.href);

      await pay.click();
      // Our link answers 303 to the gateway's hosted checkout for the charge's exact amount.
      await page.waitForURL((url) => url.href.startsWith(`${world.h.sim.url}/checkout/`));
      expect(await page.getAttribute("html", "lang")).toBe(words.language);
      expect(await page.textContent("#amount")).toBe(amount);
      await page.fill("#card_number", CARDS.approves);
      await page.fill("#expiry", "12/30");
      await page.fill("#cvv", "123");
      await page.fill("#name", "Test Client");
      await page.click("#pay");

      // The gateway's result page sends the browser back to the link's own return page, where the
      // engine asks CheckStatus before it says anything.
      await page.waitForURL(
        (url) => url.origin === world.server.url && url.pathname === `${link.pathname}/return`,
        { timeout: 20_000 },
      );
      await page.waitForSelector("main.paid");
      expect(await page.textContent("main.paid h1")).toBe(words.paid);
      expect(await page.getAttribute("html", "lang")).toBe(words.language);

      const paid = await eventually(async () => {
        const row = await chargeOf(world, charge.id);
        return row.status === "paid" ? row : undefined;
      });
      expect(paid.paidAt).not.toBeNull();
      const attempts = await world.h.ctx.db
        .select()
        .from(chargeAttempts)
        .where(eq(chargeAttempts.chargeId, charge.id));
      const orderIds = attempts.map((attempt) => attempt.orderId);
      expect(orderIds).toHaveLength(1);
      const ledger = await ledgerOf(world.h);
      const successes = ledger.payments.filter(
        (payment) => payment.order_id?.startsWith(`chg_${charge.id}_`) && payment.status === "SUCCESS",
      );
      expect(successes.map(({ order_id, amount, currency }) => ({ order_id, amount, currency }))).toEqual([
        {
          order_id: orderIds[0],
          amount: toDecimalString(charge.amountMinor, charge.currency),
          currency: charge.currency,
        },
      ]);

      // Back in the portal (the session is still open): nothing is due any more, the charge is paid.
      await page.goto(`${world.server.url}/portal`);
      expect(await page.locator("#due").count()).toBe(0);
      expect(await page.locator(`tr[data-charge="${charge.id}"] .status`).textContent()).toBe(
        words.chargePaid,
      );
    });
  },
  60_000,
);
