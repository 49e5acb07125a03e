import { Refusal } from "../billing/index.js";

/**
 * Why a plan change is refused; `code` is stable for the API and CLI. Nothing is written when a
 * change is refused.
 */
export type PlanChangeRefusal =
  | "plan_not_found"
  | "same_plan"
  | "plan_archived"
  | "currency_mismatch"
  | "subscription_past_due"
  | "subscription_not_changeable"
  | "card_amount_fixed"
  | "period_not_settled"
  | "no_scheduled_change";

export class PlanChangeError extends Refusal<PlanChangeRefusal> {
  override name = "PlanChangeError";
}
