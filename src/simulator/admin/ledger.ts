import { checkoutLedgerView } from "../checkout/checkout-session.js";
import type { SimulatorCore } from "../core.js";
import { paymentLedgerView, refundLedgerView } from "../payments/payment.js";
import { tokenLedgerView } from "../tokens/token-store.js";

/**
 * GET /_sim/ledger: everything the simulator recorded, oldest first. `payments` holds processed
 * payments only (SUCCESS or FAILURE); checkouts still waiting for a card are under `checkouts`.
 */
export function ledger(core: SimulatorCore) {
  const now = core.now();
  return {
    payments: core.payments
      .all()
      .filter((payment) => payment.status !== "PENDING")
      .map((payment) => paymentLedgerView(payment, now)),
    refunds: core.payments.refunds.map(refundLedgerView),
    tokens: [...core.tokens.all()].map((token) => tokenLedgerView(token, now)),
    invoices: core.invoices.all(),
    webhooks: core.events.webhooks,
    redirects: core.events.redirects,
    pushes: core.events.pushes,
    checkouts: [...core.checkouts.all()].map(checkoutLedgerView),
  };
}
