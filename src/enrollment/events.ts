/**
 * The event types the enrollment services record. Other modules react to some of them (the
 * charging engine to `payment_method.replaced`), so they are named here once.
 * `subscription.activated` is a merchant webhook type (src/events/types.ts).
 */
export const ENROLLMENT_EVENTS = {
  subscriptionCreated: "subscription.created",
  subscriptionActivated: "subscription.activated",
  enrollmentStarted: "enrollment.started",
  checkoutCreated: "enrollment.checkout_created",
  enrollmentExpired: "enrollment.expired",
  enrollmentCompleted: "enrollment.completed",
  enrollmentFailed: "enrollment.failed",
  /** Something an operator must look at; data.reason says what (see NeedsAttentionReason). */
  needsAttention: "enrollment.needs_attention",
  voidRefundAttempted: "enrollment.void_refund_attempted",
  /**
   * A started subscription got a new card. data: payment_method_id, previous_payment_method_id,
   * subscription_status and resume_collection (true when past_due or unpaid: open charges can be
   * retried on the new card).
   */
  paymentMethodReplaced: "payment_method.replaced",
} as const;

export type NeedsAttentionReason =
  | "void_not_refunded"
  | "void_outcome_unknown"
  | "amount_mismatch"
  | "currency_mismatch"
  | "no_card_token";

/** The actor of changes made because the gateway (or a customer's browser coming back from it) called. */
export const GATEWAY_ACTOR = "gateway";
