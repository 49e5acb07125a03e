import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import { tokenStatus } from "../tokens/token-store.js";
import type { SimReply } from "../types.js";
import { LegacyCode, legacyFailure, legacyOk } from "./codes.js";
import type { LegacyFields } from "./fields.js";

/**
 * POST /v3/StopRecurring: deactivates that one token. -10 without cardToken; -7 when the merchant has
 * no such token or it no longer works (already deactivated or expired).
 */
export function stopRecurring(
  core: SimulatorCore,
  merchant: MerchantAccount,
  fields: LegacyFields,
): SimReply {
  const value = fields.raw("cardToken");
  if (value === undefined) return legacyFailure(LegacyCode.badRequest);
  const token = core.tokens.find(merchant.id, value);
  const now = core.now();
  if (!token || tokenStatus(token, now) !== "active") return legacyFailure(LegacyCode.noRecurringPayment);
  token.deactivatedAt = now;
  return legacyOk({ result: 1 });
}
