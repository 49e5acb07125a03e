import type { ChargeRow } from "../../api/services/charges.js";
import type { OpsSession } from "../../ops/index.js";
import { actionForm, type Can } from "./actions-view.js";
import { html, layout, money } from "./html.js";

/**
 * One charge, its attempts, and the actions its state allows: reconcile when it is held for
 * review, retry when it is in dunning or ended uncollectible, refund when it is paid.
 */

const ACTIONS_BY_STATUS: Record<string, ("reconcile" | "retry" | "refund")[]> = {
  needs_review: ["reconcile"],
  retrying: ["retry"],
  uncollectible: ["retry"],
  paid: ["refund"],
};

const at = (date: Date | null) => (date ? date.toISOString().replace("T", " ").slice(0, 19) : "–");

export function chargePage(charge: ChargeRow, session: OpsSession, can: Can, notice?: string): string {
  const attempts = charge.attempts.map(
    (a) =>
      html`<tr><td class="num">${a.attemptNumber}</td><td>${a.orderId}</td><td class="status-${a.status}">${a.status}</td><td>${a.gatewayTransactionId ?? "–"}</td><td>${a.declineCode ?? "–"}</td><td>${at(a.createdAt)}</td></tr>`,
  );
  const actions = (ACTIONS_BY_STATUS[charge.status] ?? []).map((action) =>
    actionForm(can, session.csrfToken, charge.id, action),
  );
  return layout(
    { title: `Charge ${charge.id.slice(0, 8)}`, session },
    html`${notice ? html`<p class="banner" id="notice" role="status">${notice}</p>` : ""}
<p><a href="/ops">← Dashboard</a></p>
<h1>Charge <code>${charge.id}</code></h1>
<dl class="facts">
<dt>Status</dt><dd id="charge-status" class="status-${charge.status}">${charge.status}</dd>
<dt>Amount</dt><dd>${money(charge.amountMinor, charge.currency)}</dd>
<dt>Period</dt><dd>${at(charge.periodStart)} → ${at(charge.periodEnd)}</dd>
<dt>Subscription</dt><dd><code>${charge.subscriptionId}</code></dd>
<dt>Attempts</dt><dd>${charge.attemptCount}</dd>
<dt>Next attempt</dt><dd>${at(charge.nextAttemptAt)}</dd>
<dt>Last decline</dt><dd>${charge.lastDeclineCode ?? "–"} ${charge.lastDeclineDescription ?? ""}</dd>
<dt>Paid</dt><dd>${at(charge.paidAt)} ${charge.paidTransactionId ?? ""}</dd>
</dl>
<div class="actions" id="charge-actions">${actions.length > 0 ? actions : html`<span class="muted">Nothing to do for a ${charge.status} charge.</span>`}</div>
<h2>Attempts</h2>
<table><thead><tr><th>#</th><th>Order id</th><th>Status</th><th>Transaction</th><th>Decline</th><th>Sent</th></tr></thead><tbody>${attempts}</tbody></table>`,
  );
}
