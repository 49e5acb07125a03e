/**
 * `npm run screenshot [-- --out-dir DIR]`: PNGs of the ops dashboard on a desktop and on a phone,
 * docs/dashboard-1280.png and docs/dashboard-390.png by default. The engine runs as the demo runs
 * it (zero-config, a temporary data directory, the simulator in-process, the billing tick driven by
 * the TimeMachine) through a busy month (src/runtime/demo/dashboard-month.ts); then an API key logs
 * in through the login form in headless Chromium (Debian's /usr/bin/chromium, driven by
 * playwright-core), and at each width, once the four charts are drawn, the whole page is captured.
 * Prints the paths and a one-line summary and exits 0, or exits 1 with one line saying why (also
 * when the page is wider than the window). The browser, the engine and the temporary directory are
 * stopped and removed either way (also on Ctrl-C).
 */
import { constants } from "node:fs";
import { access, mkdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { DateTime } from "luxon";
import { createApiKey } from "../src/apikeys/index.js";
import { money } from "../src/http/html.js";
import { opsReader, presetRange } from "../src/ops/index.js";
import { dashboardMonth, dashboardMonthStart } from "../src/runtime/demo/dashboard-month.js";
import { runScreenshot, type ScreenshotRun } from "./screenshot/run.js";

/** A laptop and a phone (390 px: an iPhone 12 to 15). */
const VIEWPORTS = [
  { width: 1280, height: 900, file: "dashboard-1280.png" },
  { width: 390, height: 844, file: "dashboard-390.png" },
];

/** The PNG's pixel size, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

async function shoot(run: ScreenshotRun, outDir: string): Promise<string[]> {
  // A place the PNGs cannot go is found before the engine starts, not after the month.
  await mkdir(outDir, { recursive: true });
  await access(outDir, constants.W_OK);
  const demo = await run.engine({
    name: "screenshot",
    // The month ends now, so what the dashboard dates by wall time (when a charge was held, the
    // last tick) agrees with what it dates by the billing clock.
    start: dashboardMonthStart(DateTime.utc().startOf("hour")).toISO() ?? "",
    // Three inconclusive status checks hold the charge sooner; the page reads fresh figures.
    env: { RECONCILE_MAX_TRIES: "3", OPS_CACHE_SECONDS: "0" },
  });
  const { ctx, url } = demo.engine;
  const month = await dashboardMonth(demo);
  run.goOn();
  const { key } = await createApiKey(ctx.db, { name: "screenshot" });
  const browser = await run.browser();
  const [first] = VIEWPORTS;
  const page = await browser.newPage({ viewport: first, deviceScaleFactor: 1, locale: "en-US" });
  const scriptErrors: string[] = [];
  page.on("pageerror", (error) => scriptErrors.push(error.message));
  await page.goto(`${url}/ops/login`);
  await page.fill("#key", key);
  await Promise.all([page.waitForURL(`${url}/ops`), page.click("form[action='/ops/login'] button")]);
  const sizes: string[] = [];
  for (const viewport of VIEWPORTS) {
    // Drawn afresh at each width: the charts lay out (the doughnut's legend) by the room they have.
    await page.setViewportSize(viewport);
    await page.goto(`${url}/ops`);
    await page.waitForSelector('body[data-charts="4"]', { state: "attached", timeout: 15_000 });
    if (scriptErrors.length > 0) throw new Error(`the dashboard's script failed: ${scriptErrors[0]}`);
    const reconcile = page.locator(`#held-charges tr[data-charge="${month.heldChargeId}"] button`);
    if ((await reconcile.textContent())?.trim() !== "Reconcile") {
      throw new Error("the held charge has no Reconcile button on the dashboard");
    }
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (pageWidth > viewport.width) {
      throw new Error(`at ${viewport.width} px the page is ${pageWidth} px wide`);
    }
    const out = path.join(outDir, viewport.file);
    await page.screenshot({ path: out, fullPage: true });
    const { width, height } = pngSize(await readFile(out));
    const kb = Math.round((await stat(out)).size / 1024);
    sizes.push(`${path.relative(process.cwd(), out) || out}: ${width}×${height} px, ${kb} KB`);
  }

  const now = ctx.clock.now();
  const s = await opsReader(ctx).read(presetRange("30d", now, ctx.config.BILLING_TIMEZONE));
  const c = s.collections.totals;
  const rate = s.funnel.recoveryRate;
  return [
    ...sizes,
    `${month.customers} customers, 30 days to ${now.setZone(s.range.timezone).toISODate()}: ` +
      `${money(c.collected.amountMinor, s.currency)} collected in ${c.paid.count} payments, ` +
      `${c.declined.count} declined, recovery ${rate === null ? "–" : `${Math.round(rate * 100)} %`}, ` +
      `${s.attention.heldCharges.total} held for review, ${s.upcoming.expiringCards.count} cards expiring; ` +
      `${Math.round((Date.now() - run.began) / 1000)} s`,
  ];
}

await runScreenshot(async (run) => {
  const { values } = parseArgs({ options: { "out-dir": { type: "string" } } });
  return shoot(run, path.resolve(values["out-dir"] ?? "docs"));
});
