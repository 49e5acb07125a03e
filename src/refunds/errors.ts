import { Refusal } from "../billing/index.js";

/**
 * Why a refund was refused, in the engine's words; the merchant API maps each code to its HTTP
 * problem (src/problems/domain-problems.ts) and the CLI prints the message. `details` are the facts a
 * caller needs to decide (the charge's or the refund's status), snake_case as in API bodies.
 */
export type RefundRefusal =
  | "charge_not_found"
  | "charge_not_refundable"
  | "refund_exists"
  | "refund_refused"
  | "gateway_error";

export class RefundError extends Refusal<RefundRefusal> {
  override name = "RefundError";
}
