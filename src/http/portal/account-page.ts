import { isLive } from "../../billing/index.js";
import type {
  AccountCharge,
  AccountDocument,
  AccountDueCharge,
  AccountInvoice,
  AccountSubscription,
  AccountSubscriptionDetail,
  CustomerAccount,
} from "../../portal/index.js";
import type { PortalSession } from "../../sessions/index.js";
import { html, money, type Raw } from "../html.js";
import { amount, card, date, fill, name, nameInText } from "./format.js";
import type { Language, NoticeKey, PortalText } from "./i18n.js";
import { portalLayout } from "./layout.js";
import { addonsTable, usageTable } from "./subscription-tables.js";

/**
 * GET /portal: what the customer owes by payment link, their subscriptions (with their add-ons and
 * usage so far) with what they may do to each, their recent charges (a refunded one as refunded,
 * each with its receipt and credit notes) and invoices. Each action is a POST form carrying the
 * session's CSRF token and the page's language; canceling goes through a confirmation page first (a
 * plain link to it). "Pay now" is a plain link to the charge's own signed payment link (a GET that
 * sends the browser on to the gateway's hosted checkout), the same link the customer was sent.
 */

export interface PlanChoice {
  id: string;
  name: string;
  amountMinor: number;
  currency: string;
}

export interface AccountPageInput {
  session: PortalSession;
  account: CustomerAccount;
  language: Language;
  text: PortalText;
  zone: string;
  notice?: NoticeKey;
  /** Plans each subscription may move to, when the merchant lets customers change plan. */
  planChoices?: ReadonlyMap<string, PlanChoice[]>;
  /** Whether the merchant lets customers change their seats (PORTAL_SEAT_CHANGES). */
  seatChanges?: boolean;
}

const hidden = (csrf: string, language: Language) =>
  html`<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="lang" value="${language}">`;

function actions(sub: AccountSubscription, input: AccountPageInput): Raw {
  const { text, language, session } = input;
  const base = `/portal/subscriptions/${sub.id}`;
  const forms: Raw[] = [];
  if (sub.status !== "canceled") {
    // A card saved here ends collection by link (the enrolment turns the subscription to
    // charge_automatically), so a subscription that pays by link is told what the card is for.
    const label = sub.collectionMethod === "send_payment_link" ? text.saveCard : text.updateCard;
    forms.push(html`<form method="post" action="${base}/card">${hidden(session.csrfToken, language)}
<button type="submit" data-action="card">${label}</button></form>`);
  }
  if (isLive(sub.status) && sub.cancelAtPeriodEnd) {
    forms.push(html`<form method="post" action="${base}/resume">${hidden(session.csrfToken, language)}
<button type="submit" data-action="resume">${text.resume}</button></form>`);
  }
  if (isLive(sub.status) && !sub.cancelAtPeriodEnd) {
    forms.push(
      html`<a class="button secondary" data-action="cancel" href="${base}/cancel?lang=${language}">${text.cancel}</a>`,
    );
  }
  const choices = input.planChoices?.get(sub.id) ?? [];
  if (isLive(sub.status) && !sub.cancelAtPeriodEnd && choices.length > 0) {
    const options = choices.map(
      (plan) =>
        html`<option value="${plan.id}">${nameInText(plan.name)} — ${money(plan.amountMinor, plan.currency)}</option>`,
    );
    forms.push(html`<form method="post" action="${base}/plan" class="plan-change">${hidden(session.csrfToken, language)}
<label for="plan-${sub.id}">${text.changeTo}</label>
<select id="plan-${sub.id}" name="plan_id" required>${options}</select>
<button type="submit" class="secondary" data-action="plan">${text.changePlan}</button></form>`);
  }
  if (input.seatChanges && sub.priceByQuantity && isLive(sub.status) && !sub.cancelAtPeriodEnd) {
    forms.push(html`<form method="post" action="${base}/seats" class="seats-change">${hidden(session.csrfToken, language)}
<label for="seats-${sub.id}">${text.seats}</label>
<input id="seats-${sub.id}" name="quantity" type="number" min="1" max="1000000" step="1" value="${String(sub.quantity)}" required>
<button type="submit" class="secondary" data-action="seats">${text.changeSeats}</button></form>`);
  }
  return html`<div class="actions">${forms}</div>`;
}

function subscriptionCard(sub: AccountSubscriptionDetail, input: AccountPageInput): Raw {
  const { text, zone } = input;
  const state = text.subscriptionStates[sub.status as keyof PortalText["subscriptionStates"]] ?? sub.status;
  const pending =
    isLive(sub.status) && sub.cancelAtPeriodEnd
      ? html`<p class="pending" data-pending-cancel>${fill(text.endsOn, { date: date(sub.currentPeriodEnd ?? sub.nextBillingAt, text, zone) })}</p>`
      : sub.scheduledPlanName && sub.scheduledPlanAt
        ? html`<p class="pending" data-pending-plan>${fill(text.changesOn, { plan: name(sub.scheduledPlanName), date: date(sub.scheduledPlanAt, text, zone) })}</p>`
        : "";
  return html`<article class="subscription" data-subscription="${sub.id}" data-status="${sub.status}">
<h3>${name(sub.planName)} <span class="status status-${sub.status}">${state}</span></h3>
<dl>
<dt>${text.price}</dt><dd>${amount(sub.amountMinor, sub.currency)} <span class="muted">${text.every(sub.intervalCount, sub.intervalUnit)}</span></dd>
${sub.priceByQuantity ? html`<dt>${text.seats}</dt><dd data-quantity="${String(sub.quantity)}">${String(sub.quantity)}</dd>` : ""}
<dt>${text.currentPeriod}</dt><dd>${date(sub.currentPeriodStart, text, zone)} – ${date(sub.currentPeriodEnd, text, zone)}</dd>
<dt>${text.nextBilling}</dt><dd>${isLive(sub.status) && !sub.cancelAtPeriodEnd ? date(sub.nextBillingAt, text, zone) : html`<span class="none">–</span>`}</dd>
<dt>${text.collectionMethod}</dt><dd data-collection-method="${sub.collectionMethod}">${text.collectionMethods[sub.collectionMethod]}</dd>
<dt>${text.card}</dt><dd class="card">${card(sub, text, zone)}</dd>
</dl>
${addonsTable(sub, text)}
${usageTable(sub.usage, text)}
${pending}
${actions(sub, input)}
</article>`;
}

/** A refunded charge reads as its refund (it stays paid), with the money returned below it. */
function chargeState(charge: AccountCharge, text: PortalText): Raw {
  const { status, refundedMinor, processing } = charge.refund;
  if (status === null) {
    const state = text.chargeStates[charge.status as keyof PortalText["chargeStates"]] ?? charge.status;
    return html`<span class="status status-${charge.status}">${state}</span>`;
  }
  const returned =
    refundedMinor > 0
      ? html`<p class="refund-note muted">${fill(processing ? text.refundProcessing : text.refundedAmount, { amount: amount(refundedMinor, charge.currency) })}</p>`
      : "";
  return html`<span class="status status-${status}" data-refund-status="${status}">${text.refundStates[status]}</span>${returned}`;
}

/**
 * A charge's receipt and credit notes, each by number opening the page its signed link shows (the
 * same link as in its message), with the PDF beside it.
 */
function chargeDocuments(charge: AccountCharge, text: PortalText): Raw {
  const link = (document: AccountDocument, kind: string, label: string) =>
    html`<span class="document" data-document="${kind}"><a href="${document.links.html}" rel="noopener noreferrer" target="_blank">${label} <span class="num" dir="ltr">${document.number}</span></a> <a class="muted" href="${document.links.pdf}" rel="noopener noreferrer" target="_blank">${text.pdf}</a></span>`;
  return html`${charge.receipt ? link(charge.receipt, "receipt", text.receipt) : ""}${charge.creditNotes.map((note) => link(note, "credit-note", text.creditNote))}`;
}

function chargeRow(charge: AccountCharge, text: PortalText, zone: string): Raw {
  return html`<tr data-charge="${charge.id}"><td>${date(charge.paidAt ?? charge.periodStart, text, zone)}</td>
<td>${name(charge.planName)}</td><td class="amount">${amount(charge.amountMinor, charge.currency)}</td>
<td>${chargeState(charge, text)}</td><td class="documents">${chargeDocuments(charge, text)}</td></tr>`;
}

function dueRow(charge: AccountDueCharge, text: PortalText, zone: string): Raw {
  return html`<tr data-due-charge="${charge.id}"><td>${date(charge.periodStart, text, zone)}</td>
<td>${name(charge.planName)}</td><td class="amount">${amount(charge.amountMinor, charge.currency)}</td>
<td class="pay"><a class="button" data-action="pay" href="${charge.payUrl}">${text.payNow}</a></td></tr>`;
}

function invoiceRow(invoice: AccountInvoice, text: PortalText, zone: string): Raw {
  const state = text.invoiceStates[invoice.status as keyof PortalText["invoiceStates"]] ?? invoice.status;
  const number = invoice.number ? html`<span class="num" dir="ltr">${invoice.number}</span>` : "–";
  // Only a link the gateway gave us over https is offered; anything else is shown as text.
  const link =
    invoice.link && /^https?:\/\//.test(invoice.link)
      ? html`<a href="${invoice.link}" rel="noopener noreferrer" target="_blank">${text.view}</a>`
      : "";
  return html`<tr><td>${number}</td><td>${date(invoice.createdAt, text, zone)}</td>
<td class="amount">${amount(invoice.amountMinor, invoice.currency)}</td><td>${state}</td><td>${link}</td></tr>`;
}

export function accountPage(input: AccountPageInput): string {
  const { session, account, language, text, zone, notice } = input;
  const due = account.due.map((charge) => dueRow(charge, text, zone));
  const subs = account.subscriptions.map((sub) => subscriptionCard(sub, input));
  const charges = account.charges.map((charge) => chargeRow(charge, text, zone));
  const invoices = account.invoices.map((invoice) => invoiceRow(invoice, text, zone));
  const toggle = `/portal?lang=${language === "ar" ? "en" : "ar"}`;
  return portalLayout(
    {
      language,
      text,
      title: text.title,
      signedIn: { csrfToken: session.csrfToken, otherLanguageHref: toggle },
    },
    html`<h1>${fill(text.greeting, { name: name(session.name ?? session.email) })}</h1>
${notice ? html`<p class="notice" id="notice" role="status">${text.notices[notice]}</p>` : ""}
${
  due.length > 0
    ? html`<section id="due"><h2>${text.due}</h2><p class="muted">${text.dueBody}</p>
<table><thead><tr><th>${text.date}</th><th>${text.plan}</th><th class="amount">${text.amountDue}</th><th></th></tr></thead><tbody>${due}</tbody></table>
</section>`
    : ""
}
<section id="subscriptions"><h2>${text.subscriptions}</h2>
${subs.length > 0 ? subs : html`<p class="empty">${text.noSubscriptions}</p>`}
</section>
<section id="charges"><h2>${text.charges}</h2>
${
  charges.length > 0
    ? html`<table><thead><tr><th>${text.date}</th><th>${text.plan}</th><th class="amount">${text.amount}</th><th>${text.status}</th><th>${text.documents}</th></tr></thead><tbody>${charges}</tbody></table>`
    : html`<p class="empty">${text.noCharges}</p>`
}
</section>
<section id="invoices"><h2>${text.invoices}</h2>
${
  invoices.length > 0
    ? html`<table><thead><tr><th>${text.number}</th><th>${text.date}</th><th class="amount">${text.amount}</th><th>${text.status}</th><th></th></tr></thead><tbody>${invoices}</tbody></table>`
    : html`<p class="empty">${text.noInvoices}</p>`
}
</section>`,
  );
}
