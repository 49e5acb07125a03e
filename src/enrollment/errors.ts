import type { GatewayError } from "../gateway/index.js";

export type EnrollmentErrorCode =
  | "invalid_input"
  | "customer_not_found"
  | "plan_not_found"
  | "plan_archived"
  | "subscription_not_found"
  | "subscription_canceled"
  | "checkout_failed";

/** A request the enrollment services refuse; `code` is stable for the API to map to a status. */
export class EnrollmentError extends Error {
  override name = "EnrollmentError";

  constructor(
    readonly code: EnrollmentErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * AddTransaction did not give a checkout URL. The enrollment is marked failed with the reason and
 * the subscription is left as it was (a new one stays pending_enrollment), so asking again with
 * startReEnrollment(subscriptionId) is safe. `retryable` says whether the gateway might answer
 * next time (transport trouble) or will refuse the same request again.
 */
export class EnrollmentCheckoutError extends EnrollmentError {
  override name = "EnrollmentCheckoutError";
  readonly retryable: boolean;

  constructor(
    readonly subscriptionId: string,
    readonly enrollmentId: string,
    readonly gatewayError: GatewayError,
  ) {
    super("checkout_failed", `could not open the card checkout: ${gatewayError.description}`, {
      cause: gatewayError,
    });
    this.retryable = gatewayError.retryable;
  }
}

/**
 * Neither CheckStatus nor ValidatePayment could say what happened to the payment, so nothing was
 * changed. The same callback can be applied again later.
 */
export class PaymentVerificationUnavailableError extends Error {
  override name = "PaymentVerificationUnavailableError";

  constructor(
    readonly enrollmentId: string,
    cause: unknown,
  ) {
    super(`could not verify the payment of enrollment ${enrollmentId} with the gateway`, { cause });
  }
}
