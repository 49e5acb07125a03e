/**
 * `npm run screenshot [-- --out PATH]`: a PNG of the ops dashboard, docs/ops-dashboard.png by
 * default. The engine runs as the demo runs it (zero-config, a temporary data directory, the
 * simulator in-process, the billing tick driven by the TimeMachine) through a busy month
 * (src/runtime/demo/dashboard-month.ts); then an API key logs in through the login form in headless
 * Chromium (Debian's /usr/bin/chromium, driven by playwright-core), and once the four charts are
 * drawn the whole page is captured. Prints the path and a one-line summary and exits 0, or exits 1
 * with one line saying why. The browser, the engine and the temporary directory are stopped and
 * removed either way (also on Ctrl-C).
 */
import { constants } from "node:fs";
import { access, mkdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { DateTime } from "luxon";
import { type Browser, chromium } from "playwright-core";
import { createApiKey } from "../src/apikeys/index.js";
import { toDecimalString } from "../src/money/index.js";
import { opsReader, presetRange } from "../src/ops/index.js";
import { dashboardMonth, dashboardMonthStart } from "../src/runtime/demo/dashboard-month.js";
import { type DemoEngine, startDemoEngine } from "../src/runtime/demo/engine.js";

const CHROMIUM = "/usr/bin/chromium";
const VIEWPORT = { width: 1440, height: 900 };
const DEFAULT_OUT = "docs/ops-dashboard.png";

const began = Date.now();
let starting: Promise<DemoEngine> | undefined;
let launching: Promise<Browser> | undefined;
let stopping: Promise<void> | undefined;
/** Closes the browser and the engine, waiting for either if it is still starting. Idempotent. */
const stop = () => {
  stopping ??= (async () => {
    const browser = await launching?.catch(() => undefined);
    await browser?.close().catch(() => {});
    const demo = await starting?.catch(() => undefined);
    await demo?.close();
  })();
  return stopping;
};
/** After Ctrl-C nothing new is started. */
const goOn = () => {
  if (stopping) throw new Error("interrupted");
};
// Ctrl-C stops everything, and the run then fails at its next step; a second one exits at once.
let interrupted = false;
process.once("SIGINT", () => {
  interrupted = true;
  process.once("SIGINT", () => process.exit(130));
  void stop().catch(() => {});
});

/** The PNG's pixel size, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

async function shoot(out: string): Promise<string> {
  await access(CHROMIUM).catch(() => {
    throw new Error(`no Chromium at ${CHROMIUM}: install it with apt-get install -y chromium`);
  });
  // A place the PNG cannot go is found before the engine starts, not after the month.
  await mkdir(path.dirname(out), { recursive: true });
  await access(path.dirname(out), constants.W_OK);
  starting = startDemoEngine({
    name: "screenshot",
    // The month ends now, so what the dashboard dates by wall time (when a charge was held, the
    // last tick) agrees with what it dates by the billing clock.
    start: dashboardMonthStart(DateTime.utc().startOf("hour")).toISO() ?? "",
    // Three inconclusive status checks hold the charge sooner; the page reads fresh figures.
    env: { RECONCILE_MAX_TRIES: "3", OPS_CACHE_SECONDS: "0" },
  });
  const demo = await starting;
  const { ctx, url } = demo.engine;
  goOn();
  const month = await dashboardMonth(demo);
  goOn();
  const { key } = await createApiKey(ctx.db, { name: "screenshot" });
  launching = chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
    ],
  });
  const browser = await launching;
  goOn();
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1, locale: "en-US" });
  const scriptErrors: string[] = [];
  page.on("pageerror", (error) => scriptErrors.push(error.message));
  await page.goto(`${url}/ops/login`);
  await page.fill("#key", key);
  await Promise.all([page.waitForURL(`${url}/ops`), page.click("form[action='/ops/login'] button")]);
  await page.waitForSelector('body[data-charts="4"]', { state: "attached", timeout: 15_000 });
  if (scriptErrors.length > 0) throw new Error(`the dashboard's script failed: ${scriptErrors[0]}`);
  const reconcile = page.locator(`#held-charges tr[data-charge="${month.heldChargeId}"] button`);
  if ((await reconcile.textContent())?.trim() !== "Reconcile") {
    throw new Error("the held charge has no Reconcile button on the dashboard");
  }
  await page.screenshot({ path: out, fullPage: true });

  const now = ctx.clock.now();
  const s = await opsReader(ctx).read(presetRange("30d", now, ctx.config.BILLING_TIMEZONE));
  const { width, height } = pngSize(await readFile(out));
  const kb = Math.round((await stat(out)).size / 1024);
  const c = s.collections.totals;
  const rate = s.funnel.recoveryRate;
  return (
    `${month.customers} customers, 30 days to ${now.setZone(s.range.timezone).toISODate()}: ` +
    `${toDecimalString(c.paid.amountMinor, s.currency)} ${s.currency} collected in ${c.paid.count} payments, ` +
    `${c.declined.count} declined, recovery ${rate === null ? "–" : `${Math.round(rate * 100)} %`}, ` +
    `${s.attention.heldCharges.total} held for review, ${s.upcoming.expiringCards.count} cards expiring; ` +
    `${width}×${height} px, ${kb} KB, ${Math.round((Date.now() - began) / 1000)} s`
  );
}

let failed = false;
try {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  const out = path.resolve(values.out ?? DEFAULT_OUT);
  const summary = await shoot(out);
  process.stdout.write(`${path.relative(process.cwd(), out) || out}\n${summary}\n`);
} catch (error) {
  failed = true;
  // One line: a multi-line message (a browser call log, a server's last words) is folded and cut.
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim();
  const line = message.length > 300 ? `${message.slice(0, 299)}…` : message;
  process.stderr.write(interrupted ? "screenshot interrupted\n" : `screenshot failed: ${line}\n`);
} finally {
  await stop().catch((error: unknown) => {
    failed = true;
    process.stderr.write(`stopping the engine failed: ${error}\n`);
  });
}
process.exit(interrupted ? 130 : failed ? 1 : 0);
