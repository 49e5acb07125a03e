import { esc, html, type Raw, raw } from "../html.js";
import { snakeJson } from "./snake-json.js";

/**
 * The ops dashboard's page shell (stylesheet and scripts from /ops/assets, the pages' navigation and
 * the logout form when signed in) and the figures only its pages show. Markup is the html`` tag of
 * src/http/html.ts.
 */

export function percent(rate: number | null): string {
  return rate === null ? "–" : `${(rate * 100).toFixed(1)} %`;
}

/**
 * An id as the pages show it for short: its last eight hex digits. Ids begin with the time they
 * were made (version 7 UUIDs), so the first eight are the same for every row of the same minute.
 */
export function shortId(id: string): string {
  return id.slice(-8);
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
