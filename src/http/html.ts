import { amountText } from "../documents/format.js";
import { escapeHtml } from "../text/index.js";

/**
 * HTML for every page the engine serves (the ops dashboard, the customer portal, the pages a
 * customer lands on from the gateway or a payment link), built as strings on the server. Every
 * value from the database or the request goes through esc(), which the html`` tag applies to each
 * interpolation; the pages carry no inline script or style, so each area's Content-Security-Policy
 * can forbid both. Text a merchant, a customer or an operator gave (names, e-mail addresses,
 * subjects) is shown in <bdi>, so a right-to-left override in it cannot reorder the page.
 */

export function esc(value: unknown): string {
  return escapeHtml(String(value ?? ""));
}

/** Template tag: interpolations are escaped unless wrapped in raw(). */
export class Raw {
  constructor(readonly html: string) {}
}
export const raw = (html: string) => new Raw(html);

export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value];
    out += parts.map((part) => (part instanceof Raw ? part.html : esc(part))).join("");
    out += strings[i + 1] ?? "";
  });
  return new Raw(out);
}

/**
 * Exact, from the minor units, with the thousands grouped as the charts' axes are: 21,315.00 QAR,
 * as the receipts and credit notes print amounts.
 */
export const money: (minor: number, currency: string) => string = amountText;
