import { html, type Raw } from "./html.js";

/**
 * The frame of every page a customer lands on from the gateway or a payment link (result-page.ts,
 * payment-link-page.ts): one panel in the customer's language and direction, with the customer
 * portal's look (its stylesheet; the portal links here and back). `title` is the caller's constant;
 * `content` is html`` markup, so its values are escaped.
 */

export type PageLanguage = "en" | "ar";

/** The stylesheet of the customer portal (src/http/portal/routes.ts serves it without a session). */
const STYLESHEET = "/portal/assets/portal.css";

export function customerPage(page: {
  language: PageLanguage;
  /** Which page this is, as the class of <main> (main.success, main.paid) that browsers' scripts find. */
  kind: string;
  title: string;
  content: Raw;
  /** Reload the page after this many seconds (a result that is not there yet). */
  refreshSeconds?: number;
}): string {
  const dir = page.language === "ar" ? "rtl" : "ltr";
  const refresh = page.refreshSeconds
    ? html`\n<meta http-equiv="refresh" content="${page.refreshSeconds}">`
    : "";
  const document = html`<!doctype html>
<html lang="${page.language}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">${refresh}
<title>${page.title}</title>
<link rel="stylesheet" href="${STYLESHEET}">
</head>
<body>
<main class="${page.kind}">
<section class="message">
<h1>${page.title}</h1>
${page.content}
</section>
</main>
</body>
</html>`;
  return `${document.html}\n`;
}

/**
 * The URL of a customer page may carry a card token or a payment link's signature, so the page must
 * not be cached, must not send its URL on as a referrer (not even with its stylesheet's request),
 * and may load nothing but that stylesheet.
 */
export const CUSTOMER_PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'none'; style-src 'self'",
} as const;
