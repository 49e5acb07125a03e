import type { PaymentLookup } from "../gateway/index.js";
import type { GatewayReport } from "./gateway-report.js";

/**
 * What to do with an attempt whose outcome we do not know (a crashed worker left it in_flight, or a
 * timeout / 5xx / dropped reply left it unknown), given what CheckStatus said about its orderId.
 * Pure: the decision table of reconciliation.
 *
 * | CheckStatus                        | attempt quiet? | decision                                       |
 * |------------------------------------|----------------|------------------------------------------------|
 * | found, SUCCESS                     | any            | settle as approved (its transaction id)        |
 * | found, FAILURE                     | any            | settle as declined (its description)           |
 * | not found                          | yes            | not charged: close the attempt, a new one may go |
 * | not found                          | no             | wait; not counted as a try                     |
 * | found, PENDING                     | any            | wait, counted; at the limit: needs review      |
 * | CheckStatus failed                 | any            | wait, counted; at the limit: needs review      |
 * | CheckStatus failed, breaker open   | any            | wait; not counted                              |
 * | CheckStatus throttled (429)        | any            | wait; not counted (it was not asked)           |
 *
 * "Not found" means no money moved only once the gateway has had time to finish anything it
 * received: a request still being processed when we ask is not found yet. So it is trusted only
 * when the attempt is quiet, i.e. sent longer ago than any call can last (see quietPeriodMs).
 * Every GetnewPayment carries its attempt's orderId, which is what makes "not found" meaningful.
 *
 * A wait throws in the worker, so BullMQ retries with exponential backoff and jitter. After
 * `maxTries` inconclusive tries (RECONCILE_MAX_TRIES) an operator decides: guessing either way
 * could charge a card twice or lose a payment. Except while the gateway circuit breaker is open
 * (breaker/): then a status check that fails is the gateway's failure, not this attempt's (it is a
 * breaker signal itself), so the attempt is held, uncounted, until CheckStatus answers again,
 * rather than every charge going to review one by one.
 */
export type StatusLookup =
  | { readonly kind: "lookup"; readonly result: PaymentLookup }
  | { readonly kind: "failed"; readonly description: string }
  /** The gateway refused to answer for now (429): nothing was learnt, and nothing is wrong. */
  | { readonly kind: "throttled"; readonly description: string };

export interface ReconcileInput {
  readonly lookup: StatusLookup;
  /** The attempt was sent longer ago than a gateway call can take. */
  readonly quiet: boolean;
  /** Inconclusive tries already counted on the attempt. */
  readonly reconcileTries: number;
  readonly maxTries: number;
  /** The gateway circuit breaker is open; default false. */
  readonly breakerOpen?: boolean;
}

export type ReconcileDecision =
  | { readonly kind: "settle"; readonly report: Extract<GatewayReport, { kind: "approved" | "declined" }> }
  | { readonly kind: "not_charged" }
  | { readonly kind: "wait"; readonly counted: boolean; readonly why: string }
  | { readonly kind: "needs_review"; readonly why: string };

export function decideReconcile(input: ReconcileInput): ReconcileDecision {
  const { lookup, quiet, reconcileTries, maxTries } = input;
  if (!Number.isSafeInteger(maxTries) || maxTries < 1) {
    throw new RangeError(`maxTries must be a whole number from 1, got ${maxTries}`);
  }
  if (!Number.isSafeInteger(reconcileTries) || reconcileTries < 0) {
    throw new RangeError(`reconcileTries must be a non-negative whole number, got ${reconcileTries}`);
  }
  const inconclusive = (why: string): ReconcileDecision =>
    reconcileTries + 1 >= maxTries ? { kind: "needs_review", why } : { kind: "wait", counted: true, why };

  if (lookup.kind === "throttled") {
    return { kind: "wait", counted: false, why: `CheckStatus throttled: ${lookup.description}` };
  }
  if (lookup.kind === "failed") {
    const why = `CheckStatus failed: ${lookup.description}`;
    if (input.breakerOpen === true)
      return {
        kind: "wait",
        counted: false,
        why: `${why} (not counted: the gateway circuit breaker is open)`,
      };
    return inconclusive(why);
  }
  const { result } = lookup;
  if (!result.found) {
    return quiet
      ? { kind: "not_charged" }
      : { kind: "wait", counted: false, why: "not found yet; the gateway may still be processing it" };
  }
  const { payment } = result;
  switch (payment.state) {
    case "SUCCESS":
      return {
        kind: "settle",
        report: {
          kind: "approved",
          transactionId: payment.transactionId,
          authCode: payment.authCode || null,
        },
      };
    case "FAILURE":
      return {
        kind: "settle",
        report: {
          kind: "declined",
          description: payment.description ?? "declined",
          transactionId: payment.transactionId,
        },
      };
    case "PENDING":
      return inconclusive("the gateway reports the payment as PENDING");
  }
}
