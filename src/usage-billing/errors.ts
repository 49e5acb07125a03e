import { Refusal } from "../billing/index.js";

export type UsagePriceErrorCode =
  | "plan_not_found"
  | "meter_not_found"
  | "meter_archived"
  | "card_amount_fixed"
  | "usage_price_not_found";

/**
 * Rule: a refusal of the usage-price services names what was refused (`plan_id`, `meter`) in its
 * details and, when one field of the request is to blame, that field, so the API and the CLI can
 * say what to fix. Nothing is written when one is thrown.
 */
export class UsagePriceError extends Refusal<UsagePriceErrorCode> {
  override name = "UsagePriceError";

  constructor(
    code: UsagePriceErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    /** The request field the refusal is about, when one is. */
    readonly field?: string,
  ) {
    super(code, message, details);
  }
}

/** A usage price's body, refused field by field (`tiers.1.up_to`), nothing written. */
export class UsagePriceInputError extends Error {
  override name = "UsagePriceInputError";

  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(`invalid usage price: ${issues.map((issue) => issue.message).join("; ")}`);
  }
}

/**
 * The gateway charges a recurring card token the fixed amount it was enrolled for (GetnewPayment
 * takes no amount), so a plan charged through one cannot bill usage: its charges' amounts vary.
 */
export function recurringPlanRefusal(planId: string): UsagePriceError {
  return new UsagePriceError(
    "card_amount_fixed",
    `plan ${planId} has billing_mode recurring and cannot price usage: usage varies the amount; a recurring card ` +
      "token is charged the fixed amount it was enrolled for; use billing_mode autosave or payment links",
    { plan_id: planId, billing_mode: "recurring" },
    "plan_id",
  );
}
