import { legacyMode } from "../legacy/codes.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import type { CheckoutSession } from "./checkout-session.js";

/**
 * The merchant URL the result page sends the client to, with exactly the Events table's parameters,
 * or null when there is none (the client stays on the default result screen).
 *
 * v1 uses the request's success_url / failure_url only. Legacy uses the account-configured URLs; the
 * "Success redirect (legacy)" and "Account-configured redirects" rows are merged: success sends
 * transid (the spelling of the account row and of the isVoid row), orderId, mode, and `token` for
 * recurring and autosave; failure sends transId, orderId, token and mode for recurring, autosave and
 * isVoid (token is empty: no token is issued on failure), Failerdescription (spelled so) and
 * Failuredescription (the account row's spelling).
 */
export function redirectUrl(session: CheckoutSession, merchant: MerchantAccount): string | null {
  const payment = session.payment;
  const success = payment.status === "SUCCESS";
  const flow = session.flow;
  if (flow.kind === "v1") {
    const base = success ? flow.successUrl : flow.failureUrl;
    if (base === null) return null;
    const params: [string, string][] = [
      ["transaction_id", payment.transactionId],
      ["order_id", payment.orderId ?? ""],
      ["mode", payment.mode],
      ["response_code", payment.responseCode ?? ""],
      ["description", payment.description],
    ];
    if (success && flow.saveToken && payment.cardToken) params.push(["card_token", payment.cardToken]);
    return withQuery(base, params);
  }

  const base = success ? merchant.successUrl : merchant.failureUrl;
  if (base === null) return null;
  const mode = legacyMode(payment.mode);
  const saving = flow.recurring || flow.autoSave;
  if (!success) {
    const params: [string, string][] = [
      ["transId", payment.transactionId],
      ["orderId", payment.orderId ?? ""],
    ];
    if (saving || flow.isVoid) params.push(["token", ""], ["mode", mode]);
    params.push(["Failerdescription", payment.description], ["Failuredescription", payment.description]);
    return withQuery(base, params);
  }
  const params: [string, string][] = [
    ["transid", payment.transactionId],
    ["orderId", payment.orderId ?? ""],
    ["mode", mode],
  ];
  if (saving || flow.isVoid) params.push(["token", payment.cardToken ?? ""]);
  const outcome = session.voidOutcome;
  if (flow.isVoid && outcome) {
    if (outcome.refunded) params.push(["refunded", "yes"], ["RTransactionID", outcome.refundTransactionId]);
    else params.push(["refunded", "no"], ["RefundDescription", outcome.description]);
  }
  return withQuery(base, params);
}

function withQuery(base: string, params: [string, string][]): string {
  const url = new URL(base);
  for (const [key, value] of params) url.searchParams.append(key, value);
  return url.toString();
}
