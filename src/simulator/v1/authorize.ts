import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import type { SimReply } from "../types.js";
import { BEARER_LIFETIME_SECONDS } from "./bearer-store.js";

/**
 * POST /v1/Authorization/Authorize (not shown by the spec): the `api_key` header names the merchant;
 * any body is ignored. The bearer value expires 3600 seconds later on the simulator clock.
 */
export function authorize(core: SimulatorCore, merchant: MerchantAccount): SimReply {
  const bearer = core.ids.bearer();
  core.bearers.issue(bearer, merchant.id, core.now());
  return { status: 200, body: { success: true, bearer_token: bearer, expires_in: BEARER_LIFETIME_SECONDS } };
}
