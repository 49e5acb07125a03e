import type { AccountSubscriptionDetail, AccountUsage } from "../../portal/index.js";
import { html, type Raw } from "../html.js";
import { amount, name } from "./format.js";
import type { PortalText } from "./i18n.js";

/**
 * The tables inside a subscription's card: its add-ons, each priced for one period at its quantity,
 * and its usage so far in the current period, with what it costs so far when the coming usage
 * charge will bill it (src/portal/account-usage.ts says when). Nothing when there is nothing to show.
 */

export function addonsTable(sub: AccountSubscriptionDetail, text: PortalText): Raw | "" {
  if (sub.addons.length === 0) return "";
  const every = text.every(sub.intervalCount, sub.intervalUnit);
  const rows = sub.addons.map(
    (addon) => html`<tr data-addon="${addon.code}"><td>${name(addon.name)}</td>
<td data-quantity="${String(addon.quantity)}">${String(addon.quantity)}</td>
<td class="amount">${amount(addon.amountMinor, addon.currency)} <span class="muted">${every}</span></td></tr>`,
  );
  return html`<div class="addons"><h4>${text.addons}</h4>
<table><thead><tr><th>${text.item}</th><th>${text.quantity}</th><th class="amount">${text.price}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

export function usageTable(usage: AccountUsage | null, text: PortalText): Raw | "" {
  if (usage === null) return "";
  const value = (meter: { value: number }) =>
    html`<td data-usage-value="${String(meter.value)}">${String(meter.value)}</td>`;
  const table = usage.priced
    ? html`<table><thead><tr><th>${text.item}</th><th>${text.quantity}</th><th class="amount">${text.amountSoFar}</th></tr></thead>
<tbody>${usage.meters.map((meter) => html`<tr><td>${name(meter.name)}</td>${value(meter)}<td class="amount">${amount(meter.amountMinor, usage.currency)}</td></tr>`)}</tbody>
<tfoot><tr><th colspan="2">${text.totalSoFar}</th><td class="amount" data-usage-total>${amount(usage.totalMinor, usage.currency)}</td></tr></tfoot></table>`
    : html`<table><thead><tr><th>${text.item}</th><th>${text.quantity}</th></tr></thead>
<tbody>${usage.meters.map((meter) => html`<tr><td>${name(meter.name)}</td>${value(meter)}</tr>`)}</tbody></table>`;
  return html`<div class="usage" data-usage="${usage.priced ? "priced" : "values"}"><h4>${text.usageSoFar}</h4>
${table}</div>`;
}
