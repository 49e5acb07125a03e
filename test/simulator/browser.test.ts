import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.js";
import { Sim } from "./harness.js";
import { MerchantServer } from "./merchant-server.js";

/** The hosted checkout page in a real headless Chromium, through to the merchant success URL. */
let sim: Sim;
let merchant: MerchantServer;
let browser: Browser;
beforeAll(async () => {
  sim = await Sim.start();
  merchant = await MerchantServer.start();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await merchant?.close();
  await sim?.close();
});
beforeEach(async () => {
  await sim.reset();
  merchant.clear();
});

async function payInBrowser(checkoutUrl: string, successPrefix: string) {
  const page = await browser.newPage();
  try {
    await page.goto(checkoutUrl);
    await page.fill("#card_number", "4111 1111 1111 1111");
    await page.fill("#expiry", "12/30");
    await page.fill("#cvv", "123");
    await page.fill("#name", "Browser Client");
    const [lang, dir] = [await page.getAttribute("html", "lang"), await page.getAttribute("html", "dir")];
    await page.click("#pay");
    await page.waitForSelector("#result[data-status=SUCCESS]");
    await page.waitForURL((url) => url.href.startsWith(successPrefix), { timeout: 15_000 });
    return { landed: page.url(), lang, dir };
  } finally {
    await page.close();
  }
}

it("v1: types a card with CVV 123 and lands on the merchant success URL with the Events parameters", async () => {
  const url = await sim.checkout({
    order_id: "browser-1",
    success_url: `${merchant.url}/ok`,
    save_token: true,
  });
  const { landed, lang, dir } = await payInBrowser(url, `${merchant.url}/ok`);
  expect([lang, dir]).toEqual(["en", "ltr"]);
  const ledger = await sim.ledger();
  const payment = ledger.payments[0]!;
  expect([...new URL(landed).searchParams.entries()]).toEqual([
    ["transaction_id", payment.transaction_id],
    ["order_id", "browser-1"],
    ["mode", "test"],
    ["response_code", "000"],
    ["description", "Approved"],
    ["card_token", ledger.tokens[0]!.card_token],
  ]);
  const received = await merchant.waitForRequest("/ok");
  expect(received.query).toEqual([...new URL(landed).searchParams.entries()]);
});

it("legacy, Arabic (right to left): recurring enrollment lands on the account success URL with the token", async () => {
  await sim.configure({ success_url: `${merchant.url}/legacy-ok` });
  const url = await sim.addTransaction({ orderId: "browser-2", isRecurring: true });
  const { landed, lang, dir } = await payInBrowser(url, `${merchant.url}/legacy-ok`);
  expect([lang, dir]).toEqual(["ar", "rtl"]);
  const payment = (await sim.ledger()).payments[0]!;
  expect([...new URL(landed).searchParams.entries()]).toEqual([
    ["transid", payment.transaction_id],
    ["orderId", "browser-2"],
    ["mode", "Test"],
    ["token", payment.card_token!],
  ]);
});
