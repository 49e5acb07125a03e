import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { enrollNew } from "./support.js";

/**
 * The enrolment checkout asks for an amount that only verifies the card (isVoid gives it back at
 * once). Its AddTransaction `note` says so, in the customer's language, and the simulator's hosted
 * checkout page, which shows the note, carries it beside the amount to pay.
 */

let h: EngineHarness;
beforeAll(async () => {
  h = await createEngineHarness();
});
afterAll(() => h?.close());

/** The hosted checkout page as the customer's browser gets it: its language, amount and note. */
async function checkoutPage(url: string) {
  const html = await (await fetch(url)).text();
  const text = (id: string) => html.match(new RegExp(`id="${id}">([^<]*)<`))?.[1];
  return { lang: html.match(/<html lang="(\w+)"/)?.[1], amount: text("amount"), note: text("note") };
}

describe("the enrolment checkout's note", () => {
  it("tells an English-speaking customer the amount is returned at once", async () => {
    const started = await enrollNew(h, { customer: { language: "en" } });
    const page = await checkoutPage(started.checkoutUrl);
    expect(page).toEqual({
      lang: "en",
      amount: "100.00 QAR",
      note: "Card verification only: QAR 100.00 is returned to your card as soon as the payment goes through. Your subscription is charged separately.",
    });
    // The gateway takes a payment note of at most 300 characters.
    expect(page.note!.length).toBeLessThanOrEqual(300);
  });

  it("says it in Arabic to a customer who reads Arabic, with the amount asked", async () => {
    const started = await enrollNew(h, {
      customer: { language: "ar" },
      plan: { amount: "250.50", billing_mode: "autosave" },
    });
    const page = await checkoutPage(started.checkoutUrl);
    expect(page).toEqual({
      lang: "ar",
      amount: "250.50 QAR",
      note: "للتحقق من البطاقة فقط: يُعاد مبلغ 250.50 ر.ق. إلى بطاقتك فور إتمام الدفع. تُحصَّل رسوم اشتراكك بشكل منفصل.",
    });
    expect(page.note!.length).toBeLessThanOrEqual(300);
  });
});
