import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { loggedEvent } from "../../../src/charging/charge-events.js";
import { isWebhookEventType } from "../../../src/events/index.js";

describe("event-log entries of the outcome reducer's facts", () => {
  it("uses the public webhook types for what merchants build on", () => {
    expect(loggedEvent({ type: "charge.paid", attempt: 2, transactionId: "T" })).toEqual({
      type: "charge.succeeded",
      data: { attempt: 2, transaction_id: "T" },
    });
    expect(
      loggedEvent({
        type: "charge.declined",
        attempt: 1,
        decline: "retryable_decline",
        reason: "insufficient_funds",
        description: "Insufficient funds",
      }).type,
    ).toBe("charge.failed");
    expect(
      loggedEvent({
        type: "charge.retry_scheduled",
        attempt: 2,
        at: DateTime.fromISO("2026-01-16T09:00:00Z"),
      }),
    ).toEqual({ type: "charge.retry_scheduled", data: { attempt: 2, at: "2026-01-16T09:00:00.000Z" } });
    for (const to of ["past_due", "unpaid", "canceled"] as const) {
      const event = loggedEvent({ type: "subscription.state_changed", from: "active", to });
      expect(event.type).toBe(`subscription.${to}`);
      expect(isWebhookEventType(event.type)).toBe(true);
    }
  });

  it("keeps the engine's own names for bookkeeping", () => {
    expect(loggedEvent({ type: "subscription.state_changed", from: "past_due", to: "active" })).toEqual({
      type: "subscription.state_changed",
      data: { from: "past_due", to: "active" },
    });
    expect(loggedEvent({ type: "charge.uncollectible", reason: "token_unusable" }).type).toBe(
      "charge.uncollectible",
    );
    expect(
      loggedEvent({ type: "charge.needs_review", reason: "outcome_unknown", code: null, description: null })
        .type,
    ).toBe("charge.needs_review");
    expect(isWebhookEventType(loggedEvent({ type: "payment_method.unusable", description: "-7" }).type)).toBe(
      false,
    );
    const late = loggedEvent({ type: "charge.paid_after_cancellation", attempt: 1, transactionId: "T" });
    expect(late).toEqual({
      type: "charge.paid_after_cancellation",
      data: { attempt: 1, transaction_id: "T" },
    });
    expect(isWebhookEventType(late.type)).toBe(false);
  });
});
