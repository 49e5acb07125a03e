import type { ChargeRow } from "../../resources/index.js";
import type { OpsSession } from "../../sessions/index.js";
import { html, money } from "../html.js";
import { layout, shortId } from "./page.js";

/**
 * GET /ops/charges/:id/refund: what the Refund button opens. It says what goes back, and asks once
 * more, in the page itself (the charge pages load no script). Only its form, carrying confirm=yes
 * and the session's CSRF token, refunds; a POST without confirm=yes is sent back here (routes.ts).
 * The gateway returns whole payments only, so the amount is the charge's.
 */
export function refundConfirmPage(charge: ChargeRow, session: OpsSession): string {
  const amount = money(charge.amountMinor, charge.currency);
  return layout(
    { title: `Refund charge ${shortId(charge.id)}?`, session },
    html`<p><a href="/ops/charges/${charge.id}">← Charge</a></p>
<section class="confirm" id="confirm-refund">
<h1>Refund ${amount}?</h1>
<p>Refund ${amount} to the card that paid charge <code>${charge.id}</code> (gateway transaction <code>${charge.paidTransactionId ?? "–"}</code>)? This returns the whole payment; the gateway does not refund part of a payment.</p>
<div class="actions">
<form method="post" action="/ops/charges/${charge.id}/refund" class="inline">
<input type="hidden" name="csrf" value="${session.csrfToken}"><input type="hidden" name="confirm" value="yes">
<button type="submit" class="act danger" id="confirm-yes" data-action="refund">Refund ${amount}</button>
</form>
<a id="confirm-no" href="/ops/charges/${charge.id}">No, keep the payment</a>
</div>
</section>`,
  );
}
