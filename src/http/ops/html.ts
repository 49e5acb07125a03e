import { toDecimalString } from "../../money/index.js";
import { snakeJson } from "./snake-json.js";

/**
 * HTML for the ops dashboard, built as strings on the server. Every value from the database or the
 * request goes through esc(); the pages carry no inline script or style, so the Content-Security-Policy
 * (see routes.ts) can forbid both. Text a merchant, a customer or an operator gave (names, e-mail
 * addresses, subjects) is shown in <bdi>, so a right-to-left override in it cannot reorder the page.
 */

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function esc(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
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

/** Exact, from the minor units, with the thousands grouped as the charts' axes are: 21,315.00 QAR. */
export function money(minor: number, currency: string): string {
  const [whole = "", fraction] = toDecimalString(minor, currency).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  return `${fraction === undefined ? grouped : `${grouped}.${fraction}`} ${currency}`;
}

export function percent(rate: number | null): string {
  return rate === null ? "–" : `${(rate * 100).toFixed(1)} %`;
}

/**
 * JSON for a <script type="application/json"> block, snake_case as /ops/data.json: `<` is escaped so
 * it cannot close the tag.
 */
export function jsonScript(id: string, data: unknown): Raw {
  const json = snakeJson(data).replace(/</g, "\\u003c");
  return raw(`<script type="application/json" id="${esc(id)}">${json}</script>`);
}

export interface LayoutOptions {
  title: string;
  /** Shown when logged in, with the logout form. */
  session?: { keyName: string; csrfToken: string };
  scripts?: string[];
}

export function layout(options: LayoutOptions, body: Raw): string {
  const user = options.session
    ? html`<div class="who"><bdi>${options.session.keyName}</bdi>
        <form method="post" action="/ops/logout"><input type="hidden" name="csrf" value="${options.session.csrfToken}"><button class="link" type="submit">Log out</button></form></div>`
    : raw("");
  // The pages of a signed-in operator: the dashboard and the mailbox.
  const nav = options.session
    ? html`<nav class="pages" id="nav"><a class="page" href="/ops">Dashboard</a><a class="page" href="/ops/messages">Mailbox</a></nav>`
    : raw("");
  const scripts = (options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · billing-engine ops</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/ops/assets/ops.css">
${scripts}
</head>
<body>
<header class="top"><a class="brand" href="/ops">billing-engine <span>ops</span></a>${nav}${user}</header>
<main>
${body}
</main>
</body>
</html>`.html;
}
