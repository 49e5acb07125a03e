import type { SimulatorCore } from "../core.js";
import { GUID, type MerchantAccount } from "../merchants/merchant.js";
import { LegacyCode, type LegacyCodeValue } from "./codes.js";
import type { LegacyFields } from "./fields.js";

/**
 * The body field `token`: not sent → -10 (a required parameter), not a GUID → -8, a GUID that names
 * no merchant → -1.
 */
export function authenticateLegacy(
  core: SimulatorCore,
  fields: LegacyFields,
): { merchant: MerchantAccount } | { code: LegacyCodeValue } {
  const token = fields.get("token");
  if (token === undefined) return { code: LegacyCode.badRequest };
  if (!GUID.test(token)) return { code: LegacyCode.invalidToken };
  const merchant = core.merchants.find(token);
  return merchant ? { merchant } : { code: LegacyCode.unauthorized };
}
