import { Refusal } from "../billing/index.js";

/** Why a one-off charge is refused; the API maps each code to a status (problems/domain-problems.ts). */
export type OneOffRefusalCode =
  | "subscription_not_chargeable"
  | "card_amount_fixed"
  | "one_off_not_found"
  | "one_off_not_waiting";

export class OneOffRefusal extends Refusal<OneOffRefusalCode> {
  override name = "OneOffRefusal";
}

/** A body field that is wrong, named. */
export class OneOffInputError extends Error {
  override name = "OneOffInputError";

  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(`invalid one-off charge: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ")}`);
  }
}
