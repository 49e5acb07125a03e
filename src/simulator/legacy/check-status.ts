import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import type { SimReply } from "../types.js";
import { LegacyCode, legacyFailure, legacyOk } from "./codes.js";
import type { LegacyFields } from "./fields.js";
import { legacyPaymentRecord } from "./payment-record.js";

/**
 * POST /v3/CheckStatus: the latest payment of the orderId (transactionID narrows), PENDING ones
 * included; `{result: 0}` when none; -10 without orderId.
 */
export function checkStatus(core: SimulatorCore, merchant: MerchantAccount, fields: LegacyFields): SimReply {
  return lookup(core, merchant, fields, { result: 0 });
}

/** POST /v3/ValidatePayment: the same lookup and reply, but an unknown orderId is -2 (Not Found). */
export function validatePayment(
  core: SimulatorCore,
  merchant: MerchantAccount,
  fields: LegacyFields,
): SimReply {
  return lookup(core, merchant, fields, { result: LegacyCode.orderNotFound });
}

function lookup(
  core: SimulatorCore,
  merchant: MerchantAccount,
  fields: LegacyFields,
  notFound: { result: number },
): SimReply {
  const orderId = fields.raw("orderId");
  if (orderId === undefined) return legacyFailure(LegacyCode.badRequest);
  const payment = core.payments.latestForOrder(merchant.id, orderId, fields.get("transactionID"));
  if (!payment) return legacyOk(notFound);
  return legacyOk({ result: 1, payment: legacyPaymentRecord(payment) });
}
