import type { ChargeEvent } from "../billing/index.js";
import { EVENT_TYPES } from "../events/index.js";

/**
 * The event-log entry for each fact the outcome reducer (chargeOutcome) reports. Facts a merchant
 * builds on use the public webhook types (src/events/types.ts); the engine's own bookkeeping keeps
 * the reducer's names. Data keys are snake_case, as in webhook bodies.
 */
export interface LoggedEvent {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

const SUBSCRIPTION_EVENT_BY_STATE: Partial<Record<string, string>> = {
  past_due: EVENT_TYPES.subscriptionPastDue,
  unpaid: EVENT_TYPES.subscriptionUnpaid,
  canceled: EVENT_TYPES.subscriptionCanceled,
};

export function loggedEvent(event: ChargeEvent): LoggedEvent {
  switch (event.type) {
    case "charge.paid":
      return {
        type: EVENT_TYPES.chargeSucceeded,
        data: { attempt: event.attempt, transaction_id: event.transactionId },
      };
    // An operator's signal, not a webhook: apply-outcome.ts adds the charge, amount and canceled_at.
    case "charge.paid_after_cancellation":
      return { type: event.type, data: { attempt: event.attempt, transaction_id: event.transactionId } };
    case "charge.declined":
      return {
        type: EVENT_TYPES.chargeFailed,
        data: {
          attempt: event.attempt,
          decline: event.decline,
          reason: event.reason,
          description: event.description,
        },
      };
    case "charge.retry_scheduled":
      return {
        type: EVENT_TYPES.chargeRetryScheduled,
        data: { attempt: event.attempt, at: event.at.toUTC().toISO() },
      };
    case "charge.uncollectible":
      return { type: event.type, data: { reason: event.reason } };
    case "charge.needs_review":
      return {
        type: event.type,
        data: { reason: event.reason, code: event.code, description: event.description },
      };
    case "payment_method.unusable":
      return { type: event.type, data: { description: event.description } };
    case "subscription.state_changed":
      return {
        type: SUBSCRIPTION_EVENT_BY_STATE[event.to] ?? event.type,
        data: { from: event.from, to: event.to },
      };
  }
}
