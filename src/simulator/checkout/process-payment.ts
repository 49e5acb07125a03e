import { type CardInput, type EnteredCard, type FormProblem, readCardInput } from "../cards/card-input.js";
import { DECLINES, type Decline, type SimulatedCard, simulatedCard } from "../cards/simulated-cards.js";
import type { SimulatorCore } from "../core.js";
import { notifyMerchant } from "../events/notify.js";
import { voidPayment } from "../payments/refunds.js";
import { settlementTime } from "../payments/settlement.js";
import { endOfExpiryMonth, isoOf } from "../support/time.js";
import { type CardToken, tokenExpiresAt } from "../tokens/token-store.js";
import { type CheckoutSession, savesCard } from "./checkout-session.js";
import { redirectUrl } from "./redirects.js";

export type ProcessResult =
  | { kind: "invalid"; problem: FormProblem }
  | { kind: "processed"; session: CheckoutSession }
  | { kind: "finished"; session: CheckoutSession };

/**
 * What submitting the checkout page does (the page and /_sim/pay both call it): decide the outcome,
 * record the payment, issue the card token, return the money of an isVoid payment, fix the redirect
 * URL, then notify. A checkout is processed once; later submissions find it finished.
 */
export function processCheckout(
  core: SimulatorCore,
  session: CheckoutSession,
  input: CardInput,
): ProcessResult {
  if (session.payment.status !== "PENDING") return { kind: "finished", session };
  const read = readCardInput(input);
  if ("problem" in read) return { kind: "invalid", problem: read.problem };
  const entered = read.card;
  const card = simulatedCard(entered.number);
  const flow = session.flow;
  if (card && flow.kind === "legacy" && flow.cardType !== "both" && card.type !== flow.cardType) {
    return { kind: "invalid", problem: flow.cardType === "credit" ? "credit_only" : "debit_only" };
  }
  const merchant = core.merchants.byMerchantId(session.merchantId)!;
  const now = core.now();
  const decline = decide(session, card, entered, now);

  const payment = session.payment;
  payment.status = decline ? "FAILURE" : "SUCCESS";
  payment.description = decline ? decline.description : "Approved";
  payment.responseCode = decline ? decline.code : "000";
  payment.authCode = decline ? null : core.ids.authCode();
  payment.cardLast4 = entered.number.slice(-4);
  payment.createdAt = now;
  payment.settlesAt = decline ? null : settlementTime(now, merchant.settlementCutoff);

  if (!decline && card) {
    if (savesCard(session)) issueToken(core, session, card, entered, now);
    if (flow.kind === "legacy" && flow.isVoid) {
      const refund = voidPayment(core, payment, card.voidFailure);
      session.voidOutcome =
        refund.state === "FAILED"
          ? { refunded: false, description: refund.description }
          : { refunded: true, refundTransactionId: refund.refundTransactionId };
    }
  }
  session.redirectUrl = redirectUrl(session, merchant);
  recordRedirect(core, session, "payment");
  notifyMerchant(core, session, merchant);
  return { kind: "processed", session };
}

/** Records that a result page sends (or would send) the client on. */
export function recordRedirect(
  core: SimulatorCore,
  session: CheckoutSession,
  reason: "payment" | "reopen",
): void {
  const payment = session.payment;
  core.events.redirects.push({
    interface: session.flow.kind,
    checkout_id: session.id,
    transaction_id: payment.transactionId,
    order_id: payment.orderId,
    status: payment.status === "SUCCESS" ? "SUCCESS" : "FAILURE",
    url: session.redirectUrl,
    reason,
    at: isoOf(core.now()),
  });
}

/**
 * Test mode follows the spec: CVV 123 succeeds, any other fails. Live mode accepts any 3 or 4 digit
 * CVV and lets the simulated card decide. In both modes a number failing Luhn, a past expiry month and
 * a Qatar-issued debit card asked to be saved (recurring, autosave, isVoid, save_token) fail first.
 */
function decide(
  session: CheckoutSession,
  card: SimulatedCard | undefined,
  entered: EnteredCard,
  now: number,
): Decline | null {
  if (!card) return DECLINES.invalidCard;
  if (now >= endOfExpiryMonth(entered.expiryMonth, entered.expiryYear)) return DECLINES.expiredCard;
  // The mode the checkout was opened in, like the rest of its payment record.
  const cvvAccepted = session.payment.mode === "test" ? entered.cvv === "123" : /^\d{3,4}$/.test(entered.cvv);
  if (!cvvAccepted) return DECLINES.cvv;
  if (savesCard(session) && card.type === "debit" && card.issuerCountry === "QA") {
    return DECLINES.qatarDebitRecurring;
  }
  return card.checkoutDecline ?? null;
}

function issueToken(
  core: SimulatorCore,
  session: CheckoutSession,
  card: SimulatedCard,
  entered: EnteredCard,
  now: number,
): void {
  const payment = session.payment;
  const recurring = session.flow.kind === "legacy" && session.flow.recurring;
  const token: CardToken = {
    token: core.ids.cardToken(),
    merchantId: session.merchantId,
    kind: recurring ? "recurring" : "autosave",
    amountMinor: recurring ? payment.amountMinor : null,
    currency: payment.currency,
    card,
    cardLast4: entered.number.slice(-4),
    customer: payment.customer,
    sourceTransactionId: payment.transactionId,
    issuedAt: now,
    expiresAt: tokenExpiresAt(now, card, { month: entered.expiryMonth, twoDigitYear: entered.expiryYear }),
    deactivatedAt: null,
    collections: 0,
  };
  core.tokens.add(token);
  payment.cardToken = token.token;
}
