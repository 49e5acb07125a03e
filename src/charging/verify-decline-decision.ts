import type { StatusLookup } from "./reconcile-decision.js";

/**
 * Rule: a decline stored without the gateway's transaction id proves nothing. The gateway promises
 * `{result: 0, transactionid, description}` for one, and answered a bare `{result: 0}` for payments
 * it had taken, so before any new attempt of its charge, CheckStatus on that attempt's
 * orderId says what it was. Pure: the decision table of verify-decline.ts.
 *
 * | CheckStatus         | attempt quiet? | decision                                                 |
 * |---------------------|----------------|----------------------------------------------------------|
 * | found, SUCCESS      | any            | paid: the charge is paid by that attempt; nothing is sent |
 * | found, FAILURE      | any            | confirmed: a real decline (its transaction id is kept)    |
 * | not found           | yes            | not charged: the new attempt may go                       |
 * | not found           | no             | hold: the gateway may still be applying it                |
 * | found, PENDING      | any            | hold                                                      |
 * | CheckStatus failed  | any            | hold                                                      |
 *
 * As in reconciliation (reconcile-decision.ts), "not found" is trusted only once the attempt is
 * quiet (sent longer ago than any call can last). A hold sends nothing: the charge waits, due, and
 * is asked about again on its next run.
 */
export type DeclineCheck =
  | { readonly kind: "paid"; readonly transactionId: string; readonly authCode: string | null }
  | { readonly kind: "confirmed"; readonly transactionId: string }
  | { readonly kind: "not_charged" }
  | { readonly kind: "hold"; readonly why: string };

export interface DeclineCheckInput {
  readonly lookup: StatusLookup;
  /** The attempt was sent longer ago than a gateway call can take. */
  readonly quiet: boolean;
}

export function decideDeclineCheck({ lookup, quiet }: DeclineCheckInput): DeclineCheck {
  if (lookup.kind !== "lookup") {
    return { kind: "hold", why: `CheckStatus ${lookup.kind}: ${lookup.description}` };
  }
  const { result } = lookup;
  if (!result.found) {
    return quiet
      ? { kind: "not_charged" }
      : {
          kind: "hold",
          why: "CheckStatus does not know the orderId yet; the gateway may still be applying it",
        };
  }
  const { payment } = result;
  switch (payment.state) {
    case "SUCCESS":
      return { kind: "paid", transactionId: payment.transactionId, authCode: payment.authCode || null };
    case "FAILURE":
      return { kind: "confirmed", transactionId: payment.transactionId };
    case "PENDING":
      return { kind: "hold", why: "the gateway reports the payment as PENDING" };
  }
}
