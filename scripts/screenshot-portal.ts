/**
 * `npm run screenshot:portal [-- --out-dir DIR]`: PNGs of the customer portal, docs/customer-portal.png
 * (English) and docs/customer-portal-ar.png (Arabic). The engine runs as the demo runs it
 * (zero-config, a temporary data directory, the simulator in-process, billing ticks driven by the
 * TimeMachine): a customer saves cards for two subscriptions on the hosted checkout, three months
 * are billed, and one subscription is set to cancel at period end. A portal link is then opened in
 * headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core) and the page captured in
 * both languages. Prints the paths and a one-line summary and exits 0, or exits 1 with one line
 * saying why. The browser, the engine and the temporary directory are stopped and removed either way.
 */
import { constants } from "node:fs";
import { access, mkdir } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { DateTime } from "luxon";
import { cancelSubscription } from "../src/cancellation/index.js";
import { createCustomer } from "../src/customers/index.js";
import { enroll } from "../src/enrollment/index.js";
import { createPlan } from "../src/plans/index.js";
import { createPortalLink } from "../src/portal/index.js";
import type { DemoEngine } from "../src/runtime/demo/engine.js";
import { CARDS, payCheckout } from "../src/runtime/demo/scenario.js";
import { runScreenshot, type ScreenshotRun } from "./screenshot/run.js";

const VIEWPORT = { width: 1000, height: 900 };
const MONTHS = 3;

/** A customer with two subscriptions, billed for MONTHS months; the second is set to cancel. */
async function customerWithHistory(demo: DemoEngine): Promise<string> {
  const { ctx } = demo.engine;
  const gold = await createPlan(ctx, { name: "Gold", amount: "149.00", currency: "QAR", interval: "month" });
  const news = await createPlan(ctx, {
    name: "Daily news",
    amount: "25.50",
    currency: "QAR",
    interval: "month",
  });
  const { customer } = await createCustomer(
    ctx,
    { email: "amal@example.qa", name: "Amal Al-Thani", phone: "+97455555555" },
    { actor: "screenshot" },
  );
  const subscriptions: string[] = [];
  for (const plan of [gold, news]) {
    const started = await enroll(ctx, { customerId: customer.id, planId: plan.id, actor: "screenshot" });
    await payCheckout(demo.simulator, started.checkoutUrl, CARDS.approves, "Amal Al-Thani");
    subscriptions.push(started.subscriptionId);
  }
  await demo.time.play(demo.time.now().plus({ months: MONTHS - 1, days: 10 }), []);
  await cancelSubscription(ctx, {
    subscriptionId: subscriptions[1] ?? "",
    actor: "customer:portal",
    mode: "at_period_end",
  });
  return customer.id;
}

async function shoot(run: ScreenshotRun, outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  await access(outDir, constants.W_OK);
  const demo = await run.engine({
    name: "portal-screenshot",
    start: DateTime.utc().startOf("hour").minus({ months: MONTHS }).toISO() ?? "",
  });
  const customerId = await customerWithHistory(demo);
  const { ctx } = demo.engine;
  const link = await createPortalLink(ctx, { customerId, actor: "screenshot" });
  run.goOn();
  const browser = await run.browser();
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1, locale: "en-US" });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  // The cookie belongs to the host the link names (PUBLIC_URL), which may not be `url`'s.
  const site = new URL(link.url).origin;
  await page.goto(link.url);
  await page.click("#open-account");
  await page.waitForURL((url) => url.origin === site && url.pathname === "/portal");
  const written: string[] = [];
  for (const [language, file] of [
    ["en", "customer-portal.png"],
    ["ar", "customer-portal-ar.png"],
  ] as const) {
    await page.goto(`${site}/portal?lang=${language}`);
    if ((await page.getAttribute("html", "lang")) !== language) {
      throw new Error(`the ${language} page did not open (is the session gone?)`);
    }
    const out = path.join(outDir, file);
    await page.screenshot({ path: out, fullPage: true });
    written.push(out);
  }
  if (errors.length > 0) throw new Error(`the portal page raised a script error: ${errors[0]}`);
  const [counts] = await ctx.db.$client<{ charges: number; invoices: number }[]>`
    select (select count(*)::int from charges) as charges, (select count(*)::int from invoices) as invoices`;
  return [
    ...written.map((file) => path.relative(process.cwd(), file) || file),
    `2 subscriptions (one set to cancel at period end), ${counts?.charges ?? 0} charges, ` +
      `${counts?.invoices ?? 0} invoices; ${Math.round((Date.now() - run.began) / 1000)} s`,
  ];
}

await runScreenshot(async (run) => {
  const { values } = parseArgs({ options: { "out-dir": { type: "string" } } });
  return shoot(run, path.resolve(values["out-dir"] ?? "docs"));
});
