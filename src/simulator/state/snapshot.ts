import { simulatedCard } from "../cards/simulated-cards.js";
import type { SimulatorCore } from "../core.js";
import { type SimulatorState, STATE_VERSION } from "./state-schema.js";

/**
 * Everything a restarted gateway would still know, taken from the stores and put back into a fresh
 * simulator: merchants, payments, refunds, tokens, checkouts, bearers, notifications, invoices,
 * products, held requests and the id generator (so no id is handed out twice). Faults are test
 * controls of the running process and are not kept.
 */
export function captureState(core: SimulatorCore): SimulatorState {
  return {
    version: STATE_VERSION,
    ids: core.ids.snapshot(),
    merchants: core.merchants.snapshot(),
    payments: core.payments.all().map(({ refund, ...payment }) => ({
      ...payment,
      refundTransactionId: refund?.refundTransactionId ?? null,
    })),
    refunds: [...core.payments.refunds],
    tokens: [...core.tokens.all()].map(({ card, ...token }) => ({ ...token, cardNumber: card.number })),
    checkouts: [...core.checkouts.all()].map(({ payment, ...session }) => ({
      ...session,
      transactionId: payment.transactionId,
    })),
    bearers: core.bearers.all(),
    events: { webhooks: core.events.webhooks, redirects: core.events.redirects, pushes: core.events.pushes },
    invoices: core.invoices.snapshot(),
    catalogue: core.catalogue.snapshot(),
    delayed: [...core.delayed.all()],
  };
}

/** Fills a fresh simulator from saved state; a reference to something missing is a RangeError. */
export function restoreState(core: SimulatorCore, state: SimulatorState): void {
  core.ids.restore(state.ids);
  core.merchants.restore(state.merchants);
  const refunds = new Map(state.refunds.map((refund) => [refund.refundTransactionId, refund]));
  for (const refund of state.refunds) core.payments.addRefund(refund);
  for (const { refundTransactionId, ...payment } of state.payments) {
    const refund = refundTransactionId === null ? null : refunds.get(refundTransactionId);
    if (refund === undefined) {
      throw new RangeError(`payment ${payment.transactionId} names unknown refund ${refundTransactionId}`);
    }
    core.payments.add({ ...payment, refund });
  }
  for (const { cardNumber, ...token } of state.tokens) {
    const card = simulatedCard(cardNumber);
    if (!card) throw new RangeError(`token ${token.token} has a card number that fails the Luhn check`);
    core.tokens.add({ ...token, card });
  }
  for (const { transactionId, ...session } of state.checkouts) {
    const payment = core.payments.findByTransaction(session.merchantId, transactionId);
    if (!payment) throw new RangeError(`checkout ${session.id} names unknown payment ${transactionId}`);
    core.checkouts.add({ ...session, payment });
  }
  for (const bearer of state.bearers) core.bearers.restore(bearer);
  core.events.webhooks.push(...state.events.webhooks);
  core.events.redirects.push(...state.events.redirects);
  core.events.pushes.push(...state.events.pushes);
  core.invoices.restore(state.invoices);
  core.catalogue.restore(state.catalogue);
  core.delayed.replace(state.delayed);
}
