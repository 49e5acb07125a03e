import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { type RunningServer, startServer } from "../../../src/app/index.js";
import { launchChromium } from "../../support/chromium.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { type BillingMonth, billAMonth, SCENARIO } from "./scenario.js";

/**
 * The ops dashboard as an operator uses it, in headless Chromium: on a phone and on a laptop the
 * page fits the window; log in with a key, see the charts drawn from a month of billing through the
 * simulator, reconcile the charge held for review with its button and see it settle as paid.
 */
let h: EngineHarness;
let server: RunningServer;
let browser: Browser;
let month: BillingMonth;
let key: string;

beforeAll(async () => {
  h = await createEngineHarness({ gatewayTimeoutMs: 2000 });
  h.ctx.config = { ...h.ctx.config, RECONCILE_MAX_TRIES: 3 };
  month = await billAMonth(h);
  server = await startServer(h.ctx, { port: 0, host: "127.0.0.1" });
  key = (await createApiKey(h.ctx.db, { name: "ops in a browser" })).key;
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await h?.close();
});

async function logIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/ops/login`);
  await page.fill("#key", key);
  await page.click("button[type=submit]");
  await page.waitForSelector('body[data-charts="4"]');
}

/**
 * How the page sits in a window `width` wide: the document's width, the elements that stick out of
 * the window (but for those inside a box that scrolls or clips, such as a wide table's), and the
 * ticks of the axes that count.
 */
async function layoutAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${server.url}/ops?range=90d`);
  await page.waitForSelector('body[data-charts="4"]');
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const inScrollingBox = (element: Element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== "visible") return true;
      }
      return false;
    };
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${Array.from(element.classList, (c) => `.${c}`).join("")}`;
    const outside = Array.from(document.querySelectorAll("body *"))
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && (box.left < -0.5 || box.right > viewport + 0.5) && !inScrollingBox(element);
      })
      .map(name);
    // biome-ignore lint/suspicious/noExplicitAny: Chart.js is a browser global here
    const chart = (id: string) => (window as any).Chart.getChart(document.getElementById(id));
    const ticks = [
      chart("chart-collections").scales.count,
      chart("chart-funnel").scales.x,
      chart("chart-queues").scales.y,
    ].flatMap((scale: { ticks: { value: number }[] }) => scale.ticks.map((t) => t.value));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      outside,
      ticks,
    };
  });
}

it("fits a phone's window (390 px) and a laptop's (1280 px): nothing runs off the right edge", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(15_000);
  try {
    await logIn(page);
    for (const width of [390, 1280]) {
      const layout = await layoutAt(page, width);
      expect(layout.innerWidth, `at ${width} px`).toBe(width);
      expect(layout.scrollWidth, `at ${width} px`).toBeLessThanOrEqual(layout.innerWidth);
      expect(layout.outside, `at ${width} px`).toEqual([]);
      // Counts tick on whole numbers.
      expect(layout.ticks.length).toBeGreaterThan(0);
      expect(
        layout.ticks.filter((t) => !Number.isInteger(t)),
        `at ${width} px`,
      ).toEqual([]);
    }
  } finally {
    await page.close();
  }
});

it("logs in, draws the charts with the month's data, and reconciles the held charge with one click", async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(15_000);
  const scriptErrors: string[] = [];
  page.on("pageerror", (error) => scriptErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") scriptErrors.push(message.text());
  });
  try {
    await page.goto(`${server.url}/ops`);
    expect(new URL(page.url()).pathname).toBe("/ops/login");
    await logIn(page);
    // The month began more than 30 days ago: the operator widens the range.
    await page.getByRole("link", { name: "90d", exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("range") === "90d");
    await page.waitForSelector('body[data-charts="4"]');

    const drawn = await page.evaluate(() => {
      const chart = (id: string) => {
        // biome-ignore lint/suspicious/noExplicitAny: Chart.js is a browser global here
        const found = (window as any).Chart.getChart(document.getElementById(id));
        return found.data.datasets.map((d: { label?: string; data: number[] }) => ({
          label: d.label ?? "",
          sum: d.data.reduce((a: number, b: number) => a + b, 0),
        }));
      };
      return {
        collections: chart("chart-collections"),
        funnel: chart("chart-funnel"),
        statuses: chart("chart-statuses"),
      };
    });
    const paid = SCENARIO.approves + SCENARIO.declinesTwice;
    expect(drawn.collections.slice(0, 3)).toEqual([
      { label: "Collected (QAR)", sum: paid * 100 },
      { label: "Paid", sum: paid },
      { label: "Declined", sum: SCENARIO.declinesTwice * 2 + SCENARIO.alwaysDeclines * 5 },
    ]);
    expect(await page.textContent("#kpi-unknown .value")).toBe("1");
    expect(drawn.funnel[0]?.sum).toBeGreaterThan(0);
    expect(drawn.statuses[0]?.sum).toBe(paid + 1 + SCENARIO.alwaysDeclines);
    expect(await page.textContent("#recovery-rate")).toBe("60.0 %");

    const row = page.locator(`#held-charges tr[data-charge="${month.heldChargeId}"]`);
    await row.locator('button[data-action="reconcile"]').click();
    await page.waitForURL((url) => url.pathname === `/ops/charges/${month.heldChargeId}`);
    expect(await page.textContent("#notice")).toContain("the charge is paid");
    expect(await page.textContent("#charge-status")).toBe("paid");

    await page.click("text=← Dashboard");
    await page.waitForSelector('body[data-charts="4"]');
    expect(await page.textContent("#held-charges .count")).toBe("0");
    expect(scriptErrors, scriptErrors.join("\n")).toEqual([]);
  } finally {
    await page.close();
  }
});
