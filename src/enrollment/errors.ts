import type { GatewayError } from "../gateway/index.js";

export type EnrollmentErrorCode =
  | "invalid_input"
  | "customer_not_found"
  | "plan_not_found"
  | "plan_archived"
  | "currency_not_supported"
  | "already_subscribed"
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
 * The customer already holds a subscription to the plan that is not canceled (pending, live or in
 * debt); a second one is made only when asked for (allowDuplicate).
 */
export class DuplicateSubscriptionError extends EnrollmentError {
  override name = "DuplicateSubscriptionError";

  constructor(
    readonly existingSubscriptionId: string,
    readonly existingStatus: string,
    customerId: string,
    planId: string,
  ) {
    super(
      "already_subscribed",
      `customer ${customerId} already has subscription ${existingSubscriptionId} (${existingStatus}) to plan ${planId}`,
    );
  }
}

/**
 * AddTransaction did not give a checkout URL; the enrollment is not left looking open:
 * - the gateway answered, so no checkout exists there (`outcomeUnknown` false): the enrollment is
 *   failed, and a subscription that enroll() had just made is canceled (`subscriptionCanceled`),
 *   so subscribing again starts afresh;
 * - no answer after the request went out (`outcomeUnknown` true): the enrollment stays pending
 *   without a URL for the sweep to settle, the subscription stays pending_enrollment, and
 *   startReEnrollment(subscriptionId) asks for a new checkout.
 * `retryable` says whether the gateway might answer next time (transport trouble) or will refuse
 * the same request again.
 */
export class EnrollmentCheckoutError extends EnrollmentError {
  override name = "EnrollmentCheckoutError";
  readonly retryable: boolean;
  readonly outcomeUnknown: boolean;

  constructor(
    readonly subscriptionId: string,
    readonly enrollmentId: string,
    readonly gatewayError: GatewayError,
    readonly subscriptionCanceled: boolean,
  ) {
    super("checkout_failed", `could not open the card checkout: ${gatewayError.description}`, {
      cause: gatewayError,
    });
    this.retryable = gatewayError.retryable;
    this.outcomeUnknown = gatewayError.outcomeUnknown;
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
