import { Refusal } from "../billing/index.js";

export type AddonErrorCode =
  | "addon_exists"
  | "addon_not_found"
  | "addon_archived"
  | "currency_mismatch"
  | "subscription_past_due"
  | "subscription_not_changeable"
  | "card_amount_fixed"
  | "quantity_too_large"
  | "addon_not_attached";

/**
 * Rule: a refusal of the add-on services names what was refused (`addon`, `subscription_id`) in its
 * details and, when one field of the request is to blame, that field (`field`), so the API and the
 * CLI can say what to fix. Nothing is written when one is thrown.
 */
export class AddonError extends Refusal<AddonErrorCode> {
  override name = "AddonError";

  constructor(
    code: AddonErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    /** The request field the refusal is about, when one is. */
    readonly field?: string,
  ) {
    super(code, message, details);
  }
}
