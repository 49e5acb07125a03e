import { collectionDecline } from "../cards/simulated-cards.js";
import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import type { Payment } from "../payments/payment.js";
import { settlementTime } from "../payments/settlement.js";
import { parseAmount } from "../support/amount.js";
import { tokenStatus } from "../tokens/token-store.js";
import type { SimReply } from "../types.js";
import { LegacyCode, legacyFailure, legacyMode, legacyOk } from "./codes.js";
import type { LegacyFields } from "./fields.js";

/**
 * POST /v3/GetnewPayment: charges a saved card without the checkout page.
 * -10 without cardToken; -7 when the merchant has no such token or it expired or was deactivated;
 * autosave tokens: -10 without orderId or amount, or with a malformed amount; recurring tokens charge
 * their enrollment amount and currency: amount may be left out, -10 when it is sent and differs.
 * A decline is `{result: 0, transactionid, description}` and is recorded as a FAILURE payment.
 * orderId is not checked for uniqueness: a repeat charges again, as the spec only asks callers for it.
 */
export function getNewPayment(
  core: SimulatorCore,
  merchant: MerchantAccount,
  fields: LegacyFields,
): SimReply {
  const value = fields.raw("cardToken");
  if (value === undefined) return legacyFailure(LegacyCode.badRequest);
  const token = core.tokens.find(merchant.id, value);
  const now = core.now();
  if (!token || tokenStatus(token, now) !== "active") return legacyFailure(LegacyCode.noRecurringPayment);

  const orderId = fields.raw("orderId");
  const amountText = fields.get("amount");
  const amountMinor = amountText === undefined ? undefined : parseAmount(amountText, token.currency);
  if (amountText !== undefined && amountMinor === undefined) return legacyFailure(LegacyCode.badRequest);
  let charge: number;
  if (token.kind === "autosave") {
    if (orderId === undefined || amountMinor === undefined) return legacyFailure(LegacyCode.badRequest);
    charge = amountMinor;
  } else {
    if (amountMinor !== undefined && amountMinor !== token.amountMinor) {
      return legacyFailure(LegacyCode.badRequest);
    }
    charge = token.amountMinor!;
  }

  const decline = collectionDecline(token.card, token.collections++);
  const payment: Payment = {
    transactionId: core.ids.transactionId(),
    merchantId: merchant.id,
    mode: merchant.mode,
    orderId: orderId ?? null,
    operation: "GetnewPayment",
    amountMinor: charge,
    currency: token.currency,
    status: decline ? "FAILURE" : "SUCCESS",
    description: decline ? decline.description : "Approved",
    responseCode: decline ? decline.code : "000",
    authCode: decline ? null : core.ids.authCode(),
    cardToken: token.token,
    cardLast4: token.cardLast4,
    customer: token.customer,
    openedAt: now,
    createdAt: now,
    settlesAt: decline ? null : settlementTime(now, merchant.settlementCutoff),
    refund: null,
  };
  core.payments.add(payment);
  if (decline) {
    return legacyOk({ result: 0, transactionid: payment.transactionId, description: decline.description });
  }
  return legacyOk({
    result: 1,
    transactionId: payment.transactionId,
    authcode: payment.authCode,
    mode: legacyMode(merchant.mode),
  });
}
