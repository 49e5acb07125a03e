import { html, type Raw } from "../html.js";
import type { Language, PortalText } from "./i18n.js";

/**
 * The portal's page shell: <html lang dir> from the language, one stylesheet from /portal/assets
 * (the CSP allows nothing inline), and, when signed in, the language toggle and the sign-out form.
 */

export interface LayoutOptions {
  language: Language;
  text: PortalText;
  title: string;
  /** Signed in: the toggle's target and the CSRF token of the sign-out form. */
  signedIn?: { csrfToken: string; otherLanguageHref: string };
}

export function portalLayout(options: LayoutOptions, body: Raw): string {
  const { language, text, signedIn } = options;
  const other = language === "ar" ? "en" : "ar";
  const nav = signedIn
    ? html`<nav class="tools">
<a id="language-toggle" href="${signedIn.otherLanguageHref}" lang="${other}" hreflang="${other}">${text.otherLanguage}</a>
<form method="post" action="/portal/logout"><input type="hidden" name="csrf" value="${signedIn.csrfToken}"><button class="link" type="submit">${text.logout}</button></form>
</nav>`
    : "";
  return html`<!doctype html>
<html lang="${language}" dir="${text.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${options.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/portal/assets/portal.css">
</head>
<body>
<header class="top"><span class="brand">${text.title}</span>${nav}</header>
<main>
${body}
</main>
</body>
</html>`.html;
}

/** A page with a heading and a sentence: a refused link, an ended session. */
export function messagePage(language: Language, text: PortalText, title: string, body: string): string {
  return portalLayout(
    { language, text, title },
    html`<section class="message" id="message"><h1>${title}</h1><p>${body}</p></section>`,
  );
}

/**
 * What a link shows: one button that opens the account. The secret goes in the form's body; a mail
 * scanner's GET of the link leaves it unused.
 */
export function openLinkPage(language: Language, text: PortalText, token: string): string {
  return portalLayout(
    { language, text, title: text.openTitle },
    html`<section class="message" id="open-link"><h1>${text.openTitle}</h1><p>${text.openBody}</p>
<form method="post" action="/portal/open?lang=${language}"><input type="hidden" name="token" value="${token}"><button type="submit" id="open-account">${text.openButton}</button></form></section>`,
  );
}
