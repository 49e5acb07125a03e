import { AddonError, type AddonErrorCode, AddonInputError } from "../addons/index.js";
import { IllegalTransitionError, PlanInputError, type Refusal } from "../billing/index.js";
import { SubscriptionNotFoundError } from "../cancellation/index.js";
import { ChargeNotFoundError, ChargeNotHeldError } from "../charging/index.js";
import { CouponError, type CouponErrorCode, CouponInputError } from "../coupons/index.js";
import { CustomerInputError } from "../customers/index.js";
import { SqlState, violates } from "../db/index.js";
import {
  DuplicateSubscriptionError,
  EnrollmentCheckoutError,
  EnrollmentError,
  type EnrollmentErrorCode,
} from "../enrollment/index.js";
import { GatewayError, GatewayUnavailableError } from "../gateway/index.js";
import { OneOffInputError, OneOffRefusal, type OneOffRefusalCode } from "../one-off-charges/index.js";
import { CollectionMethodRefusal, type SwitchRefusalCode } from "../payment-links/index.js";
import { PlanChangeError, type PlanChangeRefusal } from "../plan-changes/index.js";
import { PortalCustomerNotFoundError } from "../portal/index.js";
import { CreditInputError, CreditRefusal, type CreditRefusalCode } from "../pricing/index.js";
import { RefundError, type RefundRefusal } from "../refunds/index.js";
import { WebhookUrlRefusedError } from "../webhooks/index.js";
import { ApiProblem, illegalTransition, notFound, validationFailed } from "./problem.js";

/**
 * The errors of the engine's services, as problems: the merchant API answers with them and the ops
 * dashboard names their codes. Kept in one table-like function so that a handler never translates
 * errors itself and a new service error is mapped in one place.
 */

type Issues = readonly { readonly field: string; readonly message: string }[];

const bodyIssues = (issues: Issues) =>
  validationFailed(issues.map((issue) => ({ field: issue.field, location: "body", message: issue.message })));

/** Enrollment refusals; a reference in the body to a missing customer or plan names its field. */
function enrollmentProblem(error: EnrollmentError): ApiProblem {
  const refusals: Record<Exclude<EnrollmentErrorCode, "checkout_failed">, () => ApiProblem> = {
    invalid_input: () => new ApiProblem(400, "validation_failed", "Request is invalid", error.message),
    customer_not_found: () => unknownReference("customer_id", error.message),
    plan_not_found: () => unknownReference("plan_id", error.message),
    plan_archived: () =>
      new ApiProblem(
        422,
        "plan_archived",
        "Plan is archived",
        `${error.message}; it takes no new subscriptions`,
      ),
    currency_not_supported: () =>
      new ApiProblem(422, "currency_not_supported", "Plan currency not supported", error.message, {
        errors: [{ field: "plan_id", location: "body", message: error.message }],
      }),
    // The existing subscription is named, so the client can use it instead.
    already_subscribed: () =>
      new ApiProblem(
        409,
        "already_subscribed",
        "Customer already subscribed to this plan",
        `${error.message}; send "allow_duplicate": true to subscribe again`,
        error instanceof DuplicateSubscriptionError
          ? { subscription_id: error.existingSubscriptionId, subscription_status: error.existingStatus }
          : {},
      ),
    subscription_not_found: () => new ApiProblem(404, "not_found", "Resource not found", error.message),
    subscription_canceled: () =>
      new ApiProblem(422, "subscription_canceled", "Subscription is canceled", error.message, {
        status_now: "canceled",
      }),
  };
  if (error instanceof EnrollmentCheckoutError) return checkoutProblem(error);
  if (error.code === "checkout_failed") {
    return new ApiProblem(502, "checkout_failed", "Checkout could not be opened", error.message);
  }
  return refusals[error.code]();
}

/**
 * No checkout URL. A refused checkout canceled the subscription it was for, so the client simply
 * subscribes again; one whose outcome is unknown left it pending, and a new card link gives it a
 * checkout (subscribing again would be refused as a duplicate).
 */
function checkoutProblem(error: EnrollmentCheckoutError): ApiProblem {
  const next = error.subscriptionCanceled
    ? `the subscription was not started (${error.subscriptionId} is canceled); subscribe again once the cause is fixed`
    : `ask for a new card link for subscription ${error.subscriptionId}`;
  return new ApiProblem(502, "checkout_failed", "Checkout could not be opened", `${error.message}; ${next}`, {
    subscription_id: error.subscriptionId,
    subscription_canceled: error.subscriptionCanceled,
    enrollment_id: error.enrollmentId,
    retryable: error.retryable,
    outcome_unknown: error.outcomeUnknown,
  });
}

function unknownReference(field: string, detail: string): ApiProblem {
  return new ApiProblem(422, "unknown_reference", "Referenced resource not found", detail, {
    errors: [{ field, location: "body", message: detail }],
  });
}

/**
 * How a service's refusal reads as a problem: its status and title, the problem code when it is
 * not the refusal's own, and the body field it is about, if any.
 */
interface RefusalProblem {
  status: number;
  title: string;
  code?: string;
  field?: string;
}

/**
 * A refusal as its table says, with the refusal's details and the offending field's error; `field`
 * names it when the refusal is about whichever field the request used.
 */
function refusalProblem<Code extends string>(
  table: Record<Code, RefusalProblem>,
  error: Refusal<Code>,
  field = table[error.code].field,
): ApiProblem {
  const { status, title, code = error.code } = table[error.code];
  return new ApiProblem(status, code, title, error.message, {
    ...error.details,
    ...(field ? { errors: [{ field, location: "body", message: error.message }] } : {}),
  });
}

/**
 * Coupon refusals. The coupon a body names (`coupon`) is the offending field of a refusal about it,
 * and the refusals of its own rules are prefixed `coupon_`; a refusal about the subscription
 * (canceled, already discounted) is a conflict with its state.
 */
const COUPON_PROBLEMS: Record<CouponErrorCode, RefusalProblem> = {
  coupon_not_found: {
    status: 422,
    code: "unknown_reference",
    title: "Referenced resource not found",
    field: "coupon",
  },
  coupon_exists: { status: 409, code: "coupon_exists", title: "Coupon code already exists", field: "code" },
  expired: { status: 422, code: "coupon_expired", title: "Coupon expired", field: "coupon" },
  archived: { status: 422, code: "coupon_archived", title: "Coupon archived", field: "coupon" },
  exhausted: { status: 422, code: "coupon_exhausted", title: "Coupon fully redeemed", field: "coupon" },
  currency_mismatch: {
    status: 422,
    code: "coupon_currency_mismatch",
    title: "Coupon in another currency",
    field: "coupon",
  },
  coupon_needs_autosave: {
    status: 422,
    code: "coupon_needs_autosave",
    title: "Coupon needs an autosave card",
    field: "coupon",
  },
  subscription_canceled: { status: 409, code: "subscription_canceled", title: "Subscription is canceled" },
  discount_exists: { status: 409, code: "discount_exists", title: "Subscription already has a discount" },
  no_discount: { status: 404, code: "no_discount", title: "Subscription has no discount" },
};

const REFUND_PROBLEMS: Record<RefundRefusal, RefusalProblem> = {
  charge_not_found: { status: 404, code: "not_found", title: "Resource not found" },
  charge_not_refundable: { status: 422, code: "charge_not_refundable", title: "Charge cannot be refunded" },
  refund_exists: { status: 409, code: "refund_exists", title: "Charge already refunded" },
  refund_refused: { status: 422, code: "refund_refused", title: "Refund refused by the gateway" },
  gateway_error: { status: 502, code: "gateway_error", title: "Payment gateway error" },
};

const PLAN_CHANGE_PROBLEMS: Record<PlanChangeRefusal, RefusalProblem> = {
  plan_not_found: {
    status: 422,
    code: "unknown_reference",
    title: "Referenced resource not found",
    field: "plan_id",
  },
  same_plan: { status: 422, title: "Subscription is already on this plan", field: "plan_id" },
  plan_archived: { status: 422, title: "Plan is archived", field: "plan_id" },
  currency_mismatch: { status: 422, title: "Plan is in another currency", field: "plan_id" },
  card_amount_fixed: { status: 422, title: "The card's amount is fixed" },
  subscription_past_due: { status: 409, title: "Subscription is past due" },
  subscription_not_changeable: { status: 409, title: "Subscription cannot change plan" },
  period_not_settled: { status: 409, title: "The current period is not settled" },
  no_scheduled_change: { status: 409, title: "No plan change is scheduled" },
};

/**
 * Switching how a subscription pays. One that has ended (or not started) is a conflict with its
 * state; a card that cannot be charged is the domain's refusal, naming the card on file, if any.
 */
const COLLECTION_METHOD_PROBLEMS: Record<SwitchRefusalCode, RefusalProblem> = {
  subscription_not_found: { status: 404, code: "not_found", title: "Resource not found" },
  subscription_ended: { status: 409, title: "Subscription has ended or not started" },
  no_usable_card: { status: 422, title: "No card that can be charged", field: "collection_method" },
};

/** One-off charges: the subscription's state is a conflict; a fixed card amount the domain's refusal. */
const ONE_OFF_PROBLEMS: Record<OneOffRefusalCode, RefusalProblem> = {
  subscription_not_chargeable: { status: 409, title: "Subscription takes no one-off charge" },
  card_amount_fixed: { status: 422, title: "The card's amount is fixed" },
  one_off_not_found: { status: 404, code: "not_found", title: "Resource not found" },
  one_off_not_waiting: { status: 409, title: "One-off charge is not waiting" },
};

/** Granting credit: an ended subscription is a conflict; the rest are the domain's refusals. */
const CREDIT_PROBLEMS: Record<CreditRefusalCode, RefusalProblem> = {
  subscription_ended: { status: 409, title: "Subscription has ended" },
  card_amount_fixed: { status: 422, title: "The card's amount is fixed" },
  amount_too_large: { status: 422, title: "Credit too large" },
};

/**
 * Add-on refusals. The add-on a request names sits in the path (`code`), so a refusal about it names
 * that; a refusal about the subscription's state is a conflict with it.
 */
const ADDON_PROBLEMS: Record<AddonErrorCode, RefusalProblem> = {
  addon_exists: { status: 409, title: "Add-on code already exists" },
  addon_not_found: { status: 404, code: "not_found", title: "Resource not found" },
  addon_archived: { status: 422, title: "Add-on is archived" },
  currency_mismatch: { status: 422, code: "addon_currency_mismatch", title: "Add-on in another currency" },
  subscription_past_due: { status: 409, title: "Subscription is past due" },
  subscription_not_changeable: { status: 409, title: "Subscription cannot change its add-ons" },
  card_amount_fixed: { status: 422, title: "The card's amount is fixed" },
  quantity_too_large: { status: 422, title: "Quantity too large" },
  addon_not_attached: { status: 404, title: "Subscription does not carry this add-on" },
};

function addonProblem(error: AddonError): ApiProblem {
  const { status, title, code = error.code } = ADDON_PROBLEMS[error.code];
  const at =
    error.field === "addon" ? { field: "code", location: "path" } : { field: error.field, location: "body" };
  return new ApiProblem(status, code, title, error.message, {
    ...error.details,
    ...(error.field ? { errors: [{ ...at, message: error.message }] } : {}),
  });
}

export function domainProblem(error: unknown): ApiProblem | undefined {
  if (error instanceof PlanChangeError) return refusalProblem(PLAN_CHANGE_PROBLEMS, error);
  if (error instanceof OneOffRefusal) return refusalProblem(ONE_OFF_PROBLEMS, error);
  if (error instanceof CollectionMethodRefusal) return refusalProblem(COLLECTION_METHOD_PROBLEMS, error);
  if (
    error instanceof PlanInputError ||
    error instanceof CustomerInputError ||
    error instanceof CouponInputError ||
    error instanceof CreditInputError ||
    error instanceof OneOffInputError ||
    error instanceof AddonInputError
  )
    return bodyIssues(error.issues);
  if (error instanceof AddonError) return addonProblem(error);
  if (error instanceof CreditRefusal) return refusalProblem(CREDIT_PROBLEMS, error, error.field);
  if (error instanceof WebhookUrlRefusedError)
    return bodyIssues([{ field: error.field, message: error.message }]);
  if (error instanceof IllegalTransitionError) {
    return illegalTransition(error.subject, error.from, error.to, error.message);
  }
  if (error instanceof SubscriptionNotFoundError) return notFound("subscription", error.subscriptionId);
  if (error instanceof PortalCustomerNotFoundError) return notFound("customer", error.customerId);
  if (error instanceof ChargeNotFoundError) return notFound("charge", error.chargeId);
  if (error instanceof ChargeNotHeldError) {
    return new ApiProblem(422, "charge_not_held", "Charge is not held for review", error.message, {
      charge_status: error.chargeStatus,
    });
  }
  if (error instanceof EnrollmentError) return enrollmentProblem(error);
  if (error instanceof RefundError) return refusalProblem(REFUND_PROBLEMS, error);
  if (error instanceof CouponError) return refusalProblem(COUPON_PROBLEMS, error);
  if (error instanceof GatewayError) {
    return new ApiProblem(
      error instanceof GatewayUnavailableError ? 503 : 502,
      "gateway_error",
      "Payment gateway error",
      `the payment gateway did not complete ${error.operation}: ${error.description}`,
      { outcome_unknown: error.outcomeUnknown },
    );
  }
  if (violates(error, SqlState.uniqueViolation)) {
    return new ApiProblem(409, "conflict", "Conflict", "the request conflicts with an existing resource");
  }
  return undefined;
}
