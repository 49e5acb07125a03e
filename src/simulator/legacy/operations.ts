import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import type { SimReply } from "../types.js";
import { addTransaction } from "./add-transaction.js";
import { authenticateLegacy } from "./auth.js";
import { checkStatus, validatePayment } from "./check-status.js";
import { legacyFailure } from "./codes.js";
import { LegacyFields } from "./fields.js";
import { getNewPayment } from "./get-new-payment.js";
import { legacyRefund } from "./refund.js";
import { stopRecurring } from "./stop-recurring.js";

type LegacyHandler = (core: SimulatorCore, merchant: MerchantAccount, fields: LegacyFields) => SimReply;

const HANDLERS = {
  AddTransaction: addTransaction,
  Refund: legacyRefund,
  CheckStatus: checkStatus,
  ValidatePayment: validatePayment,
  GetnewPayment: getNewPayment,
  StopRecurring: stopRecurring,
} satisfies Record<string, LegacyHandler>;

export type LegacyOperation = keyof typeof HANDLERS;
export const LEGACY_OPERATIONS = Object.keys(HANDLERS) as LegacyOperation[];

/**
 * One legacy operation on a request body: the body carries the merchant's `token` and every field,
 * so a request held back by a delayed_apply fault runs later from its body alone.
 */
export function runLegacy(core: SimulatorCore, operation: LegacyOperation, body: unknown): SimReply {
  const fields = new LegacyFields(body);
  const auth = authenticateLegacy(core, fields);
  return "code" in auth ? legacyFailure(auth.code) : HANDLERS[operation](core, auth.merchant, fields);
}
