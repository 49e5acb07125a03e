import { DateTime } from "luxon";
import { esc, html, money, Raw, raw } from "../html.js";
import type { PortalText } from "./i18n.js";

/**
 * Values inside the portal's sentences. Amounts and card digits are written left to right in a
 * dir="ltr" span, so "100.00 QAR" or "•••• 1111" never reorders inside Arabic text; dates are
 * isolated in <bdi> (an Arabic date reads right to left, an English one left to right). Digits are
 * Latin in both languages, as card statements and the gateway's pages show them. A name someone
 * gave (a plan's, the customer's) is isolated too: a right-to-left override or an Arabic name in it
 * would otherwise reorder the text around it, such as the status badge beside a plan's name.
 */

/** A merchant's or a customer's text inside a sentence or beside other text, in its own direction. */
export function name(text: string): Raw {
  return html`<bdi>${text}</bdi>`;
}

/**
 * name() where elements cannot go (an <option> holds text only): FIRST STRONG ISOLATE … POP
 * DIRECTIONAL ISOLATE, the characters <bdi> stands for. PDI also ends any override left open inside.
 */
export function nameInText(text: string): string {
  return `\u2068${text}\u2069`;
}

export function amount(minor: number, currency: string): Raw {
  return html`<span class="num" dir="ltr">${money(minor, currency)}</span>`;
}

export function date(value: Date | null, text: PortalText, zone: string): Raw {
  if (value === null) return html`<span class="none">–</span>`;
  const formatted = DateTime.fromJSDate(value, { zone })
    .reconfigure({ locale: text.locale, numberingSystem: "latn" })
    .toFormat("d MMM yyyy");
  return html`<bdi class="date">${formatted}</bdi>`;
}

/** The current card: its digits and expiry when known, else when it was saved. */
export function card(
  sub: { cardLast4: string | null; cardExpiry: string | null; cardSavedAt: Date | null },
  text: PortalText,
  zone: string,
): Raw {
  if (sub.cardLast4) {
    const expiry = sub.cardExpiry
      ? html` <span class="muted">${text.expires} <span class="num" dir="ltr">${sub.cardExpiry}</span></span>`
      : "";
    return html`<span class="num" dir="ltr">•••• ${sub.cardLast4}</span>${expiry}`;
  }
  if (sub.cardSavedAt) return fill(text.cardSaved, { date: date(sub.cardSavedAt, text, zone) });
  return html`<span class="none">${text.noCard}</span>`;
}

/** A translated sentence with its {placeholders} replaced by values (escaped unless Raw). */
export function fill(template: string, values: Record<string, Raw | string>): Raw {
  return raw(
    template
      .split(/(\{[a-z]+\})/)
      .map((part) => {
        const name = /^\{([a-z]+)\}$/.exec(part)?.[1];
        if (name === undefined || !(name in values)) return esc(part);
        const value = values[name];
        return value instanceof Raw ? value.html : esc(value);
      })
      .join(""),
  );
}
