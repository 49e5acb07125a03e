import type { Readiness } from "../../health/index.js";
import type { AttentionCharge, OpsSnapshot } from "../../ops/index.js";
import { RANGE_PRESETS } from "../../ops/index.js";
import type { OpsSession } from "../../sessions/index.js";
import { html, money, type Raw, raw } from "../html.js";
import { actionForm, type Can } from "./actions-view.js";
import { chartData } from "./chart-data.js";
import { jsonScript, layout, percent, shortId } from "./page.js";
import { day, when } from "./zoned-time.js";

/**
 * The dashboard page: the range picker, the headline figures, four charts (drawn in the browser by
 * Chart.js from the JSON block, assets/ops.js), collection by card and by payment link less refunds
 * (tables), what needs a person with its actions, what is coming, and queue health. Collected is
 * net of refunds everywhere, with what was refunded beside it. Usage paid is shown beside MRR and
 * not in it (usage does not recur); it is a part of Collected, which counts every paid charge.
 * Every date and time is in the billing time zone; the lists' "since" are on the billing clock.
 */

export interface DashboardView {
  snapshot: OpsSnapshot;
  /** The same checks as /readyz. */
  health: Readiness;
  session: OpsSession;
  can: Can;
  /** The query as asked, to keep the picker's state. */
  query: { preset?: string; from?: string; to?: string };
  notice?: string;
}

/** A time column's header, saying whose clock and zone its times are on. */
const timeHeader = (label: string, zone: string) =>
  html`<th title="Billing clock, ${zone} time">${label}</th>`;

/** A table that scrolls sideways inside its own box on a narrow screen, never the page. */
const scroll = (table: Raw) => html`<div class="scroll">${table}</div>`;

function picker(view: DashboardView): Raw {
  const { snapshot, query } = view;
  const presets = Object.keys(RANGE_PRESETS).map(
    (p) =>
      html`<a class="${query.preset === p || (!query.preset && !query.from && p === "30d") ? "on" : ""}" href="/ops?range=${p}&amp;currency=${snapshot.currency}">${p}</a>`,
  );
  const currencies = snapshot.currencies.map(
    (c) => html`<option value="${c}"${raw(c === snapshot.currency ? " selected" : "")}>${c}</option>`,
  );
  return html`<form class="picker" method="get" action="/ops" id="range-picker">
<span class="presets">${presets}</span>
<label>from <input type="date" name="from" value="${query.from ?? snapshot.range.from.slice(0, 10)}"></label>
<label>to <input type="date" name="to" value="${query.to ?? ""}"></label>
<label>currency <select name="currency">${currencies}</select></label>
<button type="submit">Show</button>
<span class="muted">${snapshot.range.timezone} time, by ${snapshot.range.unit} · figures as of <span class="nowrap">${when(snapshot.aggregatesAt, snapshot.range.timezone)}</span></span>
</form>`;
}

function kpis(s: OpsSnapshot): Raw {
  const c = s.collections.totals;
  const mrr = s.subscriptions.mrr.find((m) => m.currency === s.currency)?.amountMinor ?? 0;
  const usage = s.usageRevenue.paid.find((u) => u.currency === s.currency) ?? { count: 0, amountMinor: 0 };
  const card = (id: string, label: string, value: string, detail: string) =>
    html`<div class="kpi" id="kpi-${id}"><div class="label">${label}</div><div class="value">${value}</div><div class="detail">${detail}</div></div>`;
  return html`<section class="kpis">
${card("collected", "Collected", money(c.collected.amountMinor, s.currency), `${c.paid.count} payments, net of refunds`)}
${card("refunded", "Refunded", money(c.refunded.amountMinor, s.currency), `${c.refunded.count} refunds`)}
${card("declined", "Declined", String(c.declined.count), `${money(c.declined.amountMinor, s.currency)} asked`)}
${card("unknown", "Unknown now", String(s.attention.unknownOutcomes), `${s.attention.heldCharges.total} held for review`)}
${card("recovery", "Recovery rate", percent(s.funnel.recoveryRate), `${s.funnel.recovered.count} of ${s.funnel.entered.count} that entered dunning`)}
${card("mrr", "MRR", money(mrr, s.currency), `${s.subscriptions.counts.active} active, ${s.subscriptions.counts.past_due} past due`)}
${card("usage", "Usage paid", money(usage.amountMinor, s.currency), `${usage.count} usage charges, counted in Collected`)}
${card("churn", "Churn", percent(s.subscriptions.churn.rate), `${s.subscriptions.churn.canceled} canceled in the range`)}
</section>`;
}

function chargeRows(
  items: AttentionCharge[],
  zone: string,
  can: Can,
  csrf: string,
  action: "reconcile" | "retry",
): Raw[] {
  return items.map(
    (c) => html`<tr data-charge="${c.chargeId}">
<td><a href="/ops/charges/${c.chargeId}">${shortId(c.chargeId)}</a></td><td class="clip" title="${c.customerEmail}">${c.customerEmail}</td>
<td class="num">${money(c.amountMinor, c.currency)}</td><td class="num">${c.attemptCount}</td>
<td>${c.lastDeclineCode ?? "–"}</td><td class="nowrap">${day(c.since, zone)}</td>
<td>${actionForm(can, csrf, c.chargeId, action)}</td></tr>`,
  );
}

function chargeTable(
  title: string,
  id: string,
  rows: Raw[],
  total: number,
  empty: string,
  zone: string,
): Raw {
  return html`<div class="panel" id="${id}"><h3>${title} <span class="count">${total}</span></h3>
${
  rows.length === 0
    ? html`<p class="muted">${empty}</p>`
    : html`<table><thead><tr><th>Charge</th><th>Customer</th><th class="num">Amount</th><th class="num">Attempts</th><th>Last decline</th>${timeHeader("Since", zone)}<th></th></tr></thead><tbody>${rows}</tbody></table>`
}</div>`;
}

function attention(view: DashboardView): Raw {
  const { snapshot: s, can, session } = view;
  const a = s.attention;
  const zone = s.range.timezone;
  const breaker = s.breaker.open
    ? html`<div class="banner danger" id="breaker-open"><strong>Collection is paused:</strong> the gateway circuit breaker opened ${when(s.breaker.openedAt, zone)}: ${s.breaker.reason ?? ""}.
${can("resume") ? html`<form method="post" action="/ops/breaker/resume"><input type="hidden" name="csrf" value="${session.csrfToken}"><button type="submit">Resume collection</button></form>` : html`<span class="muted">Resume needs a full key.</span>`}</div>`
    : raw("");
  const enrollments = a.enrollments.items.map(
    (e) =>
      html`<tr><td>${shortId(e.subscriptionId)}</td><td><bdi>${e.customerEmail}</bdi></td><td>${e.note}</td><td class="nowrap">${when(e.since, zone)}</td></tr>`,
  );
  const invoices = a.failedInvoices.items.map(
    (i) =>
      html`<tr><td><a href="/ops/charges/${i.chargeId}">${shortId(i.chargeId)}</a></td><td class="num">${money(i.amountMinor, i.currency)}</td><td>${i.lastError ?? "–"}</td><td class="nowrap">${when(i.since, zone)}</td></tr>`,
  );
  const endpoints = a.failingEndpoints.map(
    (e) =>
      html`<tr><td>${e.url}</td><td class="num">${e.failed}</td><td class="num">${e.retrying}</td><td>${e.lastError ?? "–"}</td></tr>`,
  );
  const simple = (title: string, id: string, total: number, head: Raw[], rows: Raw[], empty: string) =>
    html`<div class="panel" id="${id}"><h3>${title} <span class="count">${total}</span></h3>${
      rows.length === 0
        ? html`<p class="muted">${empty}</p>`
        : html`<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`
    }</div>`;
  const th = (label: string) => html`<th>${label}</th>`;
  return html`<section id="attention"><h2>Needs a person</h2>
${breaker}
<div class="grid2">
${chargeTable("Held for review", "held-charges", chargeRows(a.heldCharges.items, zone, can, session.csrfToken, "reconcile"), a.heldCharges.total, "No charge is held: every gateway answer is known.", zone)}
${chargeTable("Uncollectible (newest)", "uncollectible-charges", chargeRows(a.uncollectibleCharges.items, zone, can, session.csrfToken, "retry"), a.uncollectibleCharges.total, "No charge ended uncollectible.", zone)}
${simple("Enrolments flagged", "attention-enrollments", a.enrollments.total, [th("Subscription"), th("Customer"), th("Note"), timeHeader("Since", zone)], enrollments, "None.")}
${simple("Invoices refused", "failed-invoices", a.failedInvoices.total, [th("Charge"), th("Amount"), th("Reason"), timeHeader("Since", zone)], invoices, "None.")}
${simple("Webhook endpoints failing (7 days)", "failing-endpoints", a.failingEndpoints.length, [th("Endpoint"), th("Given up"), th("Retrying"), th("Last error")], endpoints, "Every endpoint is answering.")}
</div></section>`;
}

function paymentLinks(s: OpsSnapshot): Raw {
  const p = s.paymentLinks;
  const { card, link } = p.collected;
  const { refunded, collected } = s.collections.totals;
  const f = p.funnel;
  const zone = s.range.timezone;
  const share = (n: number) => (f.sent.count === 0 ? "–" : percent(n / f.sent.count));
  const methods = [
    ["card", "Card", card],
    ["link", "Payment link", link],
  ] as const;
  const step = (id: string, label: string, count: number, amount: string) =>
    html`<tr data-step="${id}"><td>${label}</td><td class="num">${count}</td><td class="num">${share(count)}</td><td class="num">${amount}</td></tr>`;
  const waiting = p.awaiting.byCurrency.map(
    (a) =>
      html`<tr data-currency="${a.currency}"><td>${a.currency}</td><td class="num">${a.count}</td><td class="num">${money(a.amountMinor, a.currency)}</td><td class="nowrap">${when(a.oldestSentAt, zone)}</td></tr>`,
  );
  return html`<section id="payment-links"><h2>By card and by payment link</h2><div class="grid2">
<div class="panel" id="collected-by-method"><h3>Collected by method</h3><table><thead><tr><th>Paid by</th><th class="num">Payments</th><th class="num">Amount</th></tr></thead><tbody>
${methods.map(([id, label, t]) => html`<tr data-method="${id}"><td>${label}</td><td class="num">${t.count}</td><td class="num">${money(t.amountMinor, s.currency)}</td></tr>`)}
<tr data-method="refunded"><td>Refunded</td><td class="num">${refunded.count}</td><td class="num">−${money(refunded.amountMinor, s.currency)}</td></tr>
<tr><th>Collected</th><th class="num">${card.count + link.count}</th><th class="num">${money(collected.amountMinor, s.currency)}</th></tr></tbody></table></div>
<div class="panel" id="link-funnel"><h3>Payment links sent in the range</h3><table><thead><tr><th></th><th class="num">Links</th><th class="num">Of sent</th><th class="num">Amount</th></tr></thead><tbody>
${step("sent", "Sent", f.sent.count, money(f.sent.amountMinor, s.currency))}
${step("opened", "Opened", f.opened.count, "")}
${step("paid", "Paid", f.paid.count, money(f.paid.amountMinor, s.currency))}
${step("recovered", "… after a reminder", f.recoveredByReminder.count, money(f.recoveredByReminder.amountMinor, s.currency))}
</tbody></table></div>
<div class="panel" id="awaiting-payment"><h3>Waiting on a customer <span class="count">${p.awaiting.count}</span></h3>${
    waiting.length === 0
      ? html`<p class="muted">No charge is waiting for its payment link to be paid.</p>`
      : html`<table><thead><tr><th>Currency</th><th class="num">Charges</th><th class="num">Amount</th>${timeHeader("Oldest link sent", zone)}</tr></thead><tbody>${waiting}</tbody></table>`
  }</div>
</div></section>`;
}

function upcoming(s: OpsSnapshot): Raw {
  const renewals = s.upcoming.renewals.map(
    (r) =>
      html`<tr><td>next ${r.within}</td><td class="num">${r.count}</td><td class="num">${r.amounts.map((a) => money(a.amountMinor, a.currency)).join(", ") || "–"}</td></tr>`,
  );
  const cards = s.upcoming.expiringCards.first.map(
    (c) =>
      html`<tr><td><bdi>${c.customerEmail}</bdi></td><td class="nowrap">•••• ${c.cardLast4 ?? "????"}</td><td class="nowrap">${when(c.expiresAt, s.range.timezone)}</td></tr>`,
  );
  return html`<section id="upcoming"><h2>Coming up</h2><div class="grid2">
<div class="panel" id="renewals"><h3>Renewals</h3><table><thead><tr><th></th><th class="num">Subscriptions</th><th class="num">Amount</th></tr></thead><tbody>${renewals}</tbody></table></div>
<div class="panel" id="expiring-cards"><h3>Cards expiring within 30 days <span class="count">${s.upcoming.expiringCards.count}</span></h3>${
    cards.length === 0
      ? html`<p class="muted">None.</p>`
      : html`<table><thead><tr><th>Customer</th><th>Card</th><th>Stops working</th></tr></thead><tbody>${cards}</tbody></table>`
  }</div></div></section>`;
}

function health(readiness: Readiness): Raw {
  const rows = Object.entries(readiness.checks).map(
    ([name, check]) =>
      html`<tr data-check="${name}"><td>${name}</td><td class="check-${check.status}">${check.status}</td><td>${check.reason}</td></tr>`,
  );
  return html`<div class="panel" id="health"><h3>Readiness: <span class="check-${readiness.status === "ready" ? "ok" : "failing"}">${readiness.status}</span> <span class="muted">(as /readyz and <code>billing status</code>)</span></h3>
<table><tbody>${rows}</tbody></table></div>`;
}

function queues(s: OpsSnapshot): Raw {
  const q = s.queue;
  const rows = q.queues.map(
    (d) =>
      html`<tr><td>${d.queue}</td><td class="num">${d.waiting}</td><td class="num">${d.active}</td><td class="num">${d.delayed}</td><td class="num">${d.failed}</td></tr>`,
  );
  const tick = q.tick
    ? `last tick ${when(q.tick.startedAt, s.range.timezone)} (${q.tick.ageSeconds} s ago), ${q.tick.outcome ?? "running"}${q.tick.durationMs === null ? "" : ` in ${q.tick.durationMs} ms`}${q.tick.error ? `: ${q.tick.error}` : ""}`
    : "no billing tick recorded yet";
  return html`<section id="queues"><h2>Queues</h2><div class="grid2">
<div class="panel"><table><thead><tr><th>Queue</th><th class="num">Waiting</th><th class="num">Active</th><th class="num">Delayed</th><th class="num">Failed</th></tr></thead><tbody>${rows}</tbody></table>
<p id="tick-health">${tick}</p>
<p id="due-lag">${q.dueCharges} charges due; the oldest has waited ${q.oldestDueLagSeconds} s.</p></div>
<div class="panel chart"><canvas id="chart-queues" aria-label="Jobs per queue"></canvas></div>
</div></section>`;
}

export function dashboardPage(view: DashboardView): string {
  const s = view.snapshot;
  const funnelRows = s.funnel.recoveredByRetry.map(
    (r) =>
      html`<tr><td>Recovered at retry ${r.retry}</td><td class="num">${r.count}</td><td class="num">${money(r.amountMinor, s.currency)}</td></tr>`,
  );
  const statusRows = Object.entries(s.subscriptions.counts).map(
    ([status, n]) => html`<tr><td>${status}</td><td class="num">${n}</td></tr>`,
  );
  return layout(
    {
      title: "Dashboard",
      session: view.session,
      scripts: ["/ops/assets/chart.umd.min.js", "/ops/assets/ops.js"],
    },
    html`${view.notice ? html`<p class="banner" id="notice" role="status">${view.notice}</p>` : ""}
${picker(view)}
${kpis(s)}
<section id="collections"><h2>Collections</h2><div class="panel chart wide"><canvas id="chart-collections" aria-label="Collections over time"></canvas></div></section>
${paymentLinks(s)}
<section class="grid2">
<div id="funnel"><h2>Dunning funnel</h2><div class="panel chart"><canvas id="chart-funnel" aria-label="Dunning funnel"></canvas></div>
${scroll(html`<table><tbody><tr><td>Entered dunning</td><td class="num">${s.funnel.entered.count}</td><td class="num">${money(s.funnel.entered.amountMinor, s.currency)}</td></tr>
${funnelRows}
<tr><td>Still retrying</td><td class="num">${s.funnel.inDunning.count}</td><td class="num">${money(s.funnel.inDunning.amountMinor, s.currency)}</td></tr>
<tr><td>Invoiced</td><td class="num">${s.funnel.invoiced.count}</td><td class="num">${money(s.funnel.invoiced.amountMinor, s.currency)}</td></tr>
<tr><th>Recovery rate</th><th class="num" id="recovery-rate">${percent(s.funnel.recoveryRate)}</th><th></th></tr></tbody></table>`)}</div>
<div id="subscriptions"><h2>Subscriptions</h2><div class="panel chart"><canvas id="chart-statuses" aria-label="Subscriptions by status"></canvas></div>
${scroll(html`<table><tbody>${statusRows}</tbody></table>`)}</div>
</section>
${attention(view)}
${upcoming(s)}
${queues(s)}
${health(view.health)}
<section id="find"><h2>Find a charge</h2><form method="get" action="/ops/charges" class="picker"><input name="id" placeholder="charge id" size="40" required><button type="submit">Open</button></form></section>
${jsonScript("ops-data", chartData(s))}`,
  );
}
