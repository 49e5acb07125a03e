import { describe, expect, it } from "vitest";
import { createMessageRenderer, MESSAGE_KINDS } from "../../../src/messages/render/index.js";
import { AMOUNT_TEXT, input, MODELS, urlsOf, visible } from "./fixtures.js";

const renderer = createMessageRenderer();
const LANGUAGES = ["en", "ar"] as const;
const CASES = MESSAGE_KINDS.flatMap((kind) => LANGUAGES.map((language) => [kind, language] as const));
const WITH_AMOUNT = new Set(MESSAGE_KINDS.filter((kind) => "amount" in MODELS[kind]));
/** Kinds whose subject names the amount; a trial's end is about the date. */
const AMOUNT_IN_SUBJECT = new Set([
  "receipt",
  "payment_due",
  "payment_failed",
  "renewal_upcoming",
  "refund_issued",
]);
/** A value of each kind that Arabic text must isolate, as the reader sees it. */
const ISOLATED: Record<(typeof MESSAGE_KINDS)[number], string> = {
  receipt: "RCT-000042",
  payment_due: "Pro Monthly",
  payment_failed: "Insufficient funds",
  card_expiring: "نوفمبر 2026",
  renewal_upcoming: "1 ديسمبر 2026",
  trial_ending: "1 ديسمبر 2026",
  subscription_canceled: "20 نوفمبر 2026",
  refund_issued: "CN-000007",
};
const FSI = "\u2068";
const PDI = "\u2069";

describe.each(CASES)("%s in %s", (kind, language) => {
  const model = MODELS[kind];

  it("has a one-line subject, a text and an HTML part in its language", async () => {
    const message = await renderer.render(input(model, language));
    expect(message.language).toBe(language);
    expect(message.subject).not.toMatch(/\n/);
    expect(message.subject.length).toBeGreaterThan(10);
    expect(message.subject.length).toBeLessThan(110);
    for (const part of [message.subject, message.text, message.html]) {
      expect(part).not.toMatch(/undefined|null|NaN|\[object|<%|%>/);
      // Every date was written out for the reader, none left as ISO.
      expect(part).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    }
  });

  it("carries the formatted amount in subject, text and HTML", async () => {
    if (!WITH_AMOUNT.has(kind)) return;
    const message = await renderer.render(input(model, language));
    if (AMOUNT_IN_SUBJECT.has(kind)) expect(visible(message.subject)).toContain(AMOUNT_TEXT[language]);
    expect(visible(message.text)).toContain(AMOUNT_TEXT[language]);
    expect(message.html).toContain(AMOUNT_TEXT[language]);
  });

  it("gives every URL in full: as is in the text, attribute-escaped in the HTML", async () => {
    const message = await renderer.render(input(model, language));
    const urls = urlsOf(model);
    // A cancellation has nothing to click; every other kind has a link.
    expect(urls.length > 0).toBe(kind !== "subscription_canceled");
    for (const url of urls) {
      expect(message.text.split("\n")).toContain(url);
      expect(message.html).toContain(`href="${url.replaceAll("&", "&amp;")}"`);
    }
  });

  it("is an e-mail-safe HTML document with the right direction", async () => {
    const { html } = await renderer.render(input(model, language));
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain(language === "ar" ? '<html lang="ar" dir="rtl">' : '<html lang="en" dir="ltr">');
    expect(html).toContain("max-width:600px");
    expect(html).toContain('<img src="https://cdn.example.qa/acme.png" alt="Acme"');
    expect(html).not.toMatch(/<script|<link|<style|javascript:/i);
  });

  it("writes Arabic text with Western digits and its values isolated", async () => {
    if (language !== "ar") return;
    const message = await renderer.render(input(model, language));
    expect(message.text + message.subject).not.toMatch(/[\u0660-\u0669]/);
    expect(message.text).toContain(`${FSI}${ISOLATED[kind]}${PDI}`);
    if (WITH_AMOUNT.has(kind)) expect(message.text).toContain(`${FSI}${AMOUNT_TEXT.ar}${PDI}`);
  });
});

describe("greeting and sign-off", () => {
  it("greets by name, or without one", async () => {
    const named = await renderer.render(input(MODELS.receipt, "en"));
    expect(named.text.startsWith("Hello Fatima,\n")).toBe(true);
    const anonymous = await renderer.render(
      input(MODELS.receipt, "ar", { customer: { name: null, email: "x@example.qa" } }),
    );
    expect(anonymous.text.startsWith("مرحباً،\n")).toBe(true);
    expect(anonymous.html).toContain("x@example.qa");
  });

  it("leaves out the logo and the support address when the merchant has none", async () => {
    const message = await renderer.render(
      input(MODELS.receipt, "en", { merchant: { name: "Acme", logoUrl: null, supportEmail: null } }),
    );
    expect(message.html).not.toContain("<img");
    expect(message.html).not.toContain("mailto:");
    expect(message.text).not.toContain("Questions?");
  });
});
