import type { ChargeRow } from "../../resources/index.js";
import type { OpsSession } from "../../sessions/index.js";
import { html, money, type Raw } from "../html.js";
import { actionForm, type Can } from "./actions-view.js";
import type { ChargeDocumentLinks, LinkedDocument } from "./charge-documents.js";
import { layout, shortId } from "./page.js";

/**
 * One charge, its attempts, its refund, its receipt and credit notes (by number, linked to what the
 * customer got), and the actions its state allows: reconcile when it is held for review, retry
 * when it is in dunning or ended uncollectible, refund when it is paid and its payment was not
 * refunded, nor is being refunded (a failed refund may be asked again).
 */

const ACTIONS_BY_STATUS: Record<string, ("reconcile" | "retry" | "refund")[]> = {
  needs_review: ["reconcile"],
  retrying: ["retry"],
  uncollectible: ["retry"],
  paid: ["refund"],
};

export function chargeActions(charge: ChargeRow): ("reconcile" | "retry" | "refund")[] {
  const refundable =
    charge.paidTransactionId !== null &&
    (charge.refund.status === null || charge.refund.status === "refund_failed");
  return (ACTIONS_BY_STATUS[charge.status] ?? []).filter((action) => action !== "refund" || refundable);
}

const at = (date: Date | null) => (date ? date.toISOString().replace("T", " ").slice(0, 19) : "–");

const REFUND_WORDS = {
  refund_pending: "Refund asked; the gateway's answer is not known yet",
  refunded: "Refunded",
  refund_failed: "Refund failed; the payment was not returned",
} as const;

function refundFact(charge: ChargeRow): Raw {
  const { status, refundedMinor, processing } = charge.refund;
  if (status === null) return html`<span class="muted">Not refunded</span>`;
  const amount = refundedMinor > 0 ? ` ${money(refundedMinor, charge.currency)}` : "";
  const note = processing ? " (the gateway is still returning the money)" : "";
  return html`<span class="refund-${status}">${REFUND_WORDS[status]}${amount}${note}</span>`;
}

/** A document by its number, opening the signed page its customer got, with the PDF beside it. */
const documentLink = (document: LinkedDocument) =>
  html`<a href="${document.links.html}" rel="noreferrer" target="_blank">${document.number}</a> <a class="muted" href="${document.links.pdf}" rel="noreferrer" target="_blank">PDF</a>`;

export function chargePage(
  charge: ChargeRow,
  documents: ChargeDocumentLinks,
  session: OpsSession,
  can: Can,
  notice?: string,
): string {
  const attempts = charge.attempts.map(
    (a) =>
      html`<tr><td class="num">${a.attemptNumber}</td><td>${a.orderId}</td><td class="status-${a.status}">${a.status}</td><td>${a.gatewayTransactionId ?? "–"}</td><td>${a.declineCode ?? "–"}</td><td>${at(a.createdAt)}</td></tr>`,
  );
  const actions = chargeActions(charge).map((action) =>
    actionForm(can, session.csrfToken, charge.id, action),
  );
  return layout(
    { title: `Charge ${shortId(charge.id)}`, session },
    html`${notice ? html`<p class="banner" id="notice" role="status">${notice}</p>` : ""}
<p><a href="/ops">← Dashboard</a></p>
<h1>Charge <code>${charge.id}</code></h1>
<dl class="facts">
<dt>Status</dt><dd id="charge-status" class="status-${charge.status}">${charge.status}</dd>
<dt>Amount</dt><dd>${money(charge.amountMinor, charge.currency)}</dd>
<dt>Refund</dt><dd id="charge-refund" data-refund-status="${charge.refund.status ?? "none"}">${refundFact(charge)}</dd>
<dt>Period</dt><dd>${at(charge.periodStart)} → ${at(charge.periodEnd)}</dd>
<dt>Subscription</dt><dd><code>${charge.subscriptionId}</code></dd>
<dt>Attempts</dt><dd>${charge.attemptCount}</dd>
<dt>Next attempt</dt><dd>${at(charge.nextAttemptAt)}</dd>
<dt>Last decline</dt><dd>${charge.lastDeclineCode ?? "–"} ${charge.lastDeclineDescription ?? ""}</dd>
<dt>Paid</dt><dd>${at(charge.paidAt)} ${charge.paidTransactionId ?? ""}</dd>
<dt>Receipt</dt><dd id="charge-receipt">${documents.receipt ? documentLink(documents.receipt) : "–"}</dd>
<dt>Credit notes</dt><dd id="charge-credit-notes">${documents.creditNotes.length > 0 ? documents.creditNotes.map((note, i) => html`${i > 0 ? ", " : ""}${documentLink(note)}`) : "–"}</dd>
</dl>
<div class="actions" id="charge-actions">${actions.length > 0 ? actions : html`<span class="muted">Nothing to do for this ${charge.status} charge.</span>`}</div>
<h2>Attempts</h2>
<table><thead><tr><th>#</th><th>Order id</th><th>Status</th><th>Transaction</th><th>Decline</th><th>Sent</th></tr></thead><tbody>${attempts}</tbody></table>`,
  );
}
