import { z } from "zod";
import { meterCode } from "./meter-input.js";

/**
 * Rule: the shape of usage events, checked before anything is looked up, each bad field named
 * (`events.3.quantity`). An event names its subscription, or a customer whose single live
 * subscription is meant (exactly one of the two); quantities are whole units of the meter (the
 * merchant sends the smallest unit: bytes, not GB), 0 to 2^53-1, 1 when left out; the timestamp is
 * ISO 8601 with an offset, the billing clock's now when left out. A batch holds 1 to MAX_BATCH.
 */

export const MAX_BATCH = 1000;

const MAX_QUANTITY = Number.MAX_SAFE_INTEGER;

export const usageEventSchema = z
  .strictObject({
    id: z
      .string({ error: "id must be a string: the event's idempotency key" })
      .min(1, { error: "id must not be empty" })
      .max(255, { error: "id must be at most 255 characters" })
      .describe("The event's idempotency key: the same id for the same subscription is recorded once"),
    subscription_id: z
      .uuid({ error: "subscription_id must be a subscription id (a uuid)" })
      .optional()
      .describe("The subscription the usage is for; or customer_id"),
    customer_id: z
      .uuid({ error: "customer_id must be a customer id (a uuid)" })
      .optional()
      .describe("Instead of subscription_id: the customer's single live subscription"),
    meter: meterCode.describe("The meter's code"),
    quantity: z
      .number({ error: "quantity must be a whole number" })
      .int({ error: "quantity must be a whole number" })
      .min(0, { error: "quantity must not be negative" })
      .max(MAX_QUANTITY, { error: `quantity must be at most ${MAX_QUANTITY}` })
      .default(1)
      .describe("Whole units of the meter (send the smallest unit); default 1"),
    timestamp: z.iso
      .datetime({
        offset: true,
        error: "timestamp must be ISO 8601 with an offset, e.g. 2026-01-15T09:00:00Z",
      })
      .optional()
      .describe("When the usage happened; default now (billing clock)"),
    distinct_value: z
      .string({ error: "distinct_value must be a string" })
      .min(1, { error: "distinct_value must not be empty" })
      .max(255, { error: "distinct_value must be at most 255 characters" })
      .optional()
      .describe("What unique_count meters count distinct values of; required for them"),
  })
  .superRefine((event, ctx) => {
    const named = Number(event.subscription_id !== undefined) + Number(event.customer_id !== undefined);
    if (named !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["subscription_id"],
        message:
          named === 0
            ? "subscription_id is required (or customer_id)"
            : "send subscription_id or customer_id, not both",
      });
    }
  })
  .meta({ id: "UsageEvent" });

export const usageBatchSchema = z.strictObject({
  events: z
    .array(usageEventSchema, { error: "events must be an array of events" })
    .min(1, { error: "events must hold at least one event" })
    .max(MAX_BATCH, { error: `events must hold at most ${MAX_BATCH} events; split the batch` }),
});

/** An event as ingestion takes it: parsed by usageEventSchema, or written so by a direct caller. */
export type UsageEventInput = Omit<z.output<typeof usageEventSchema>, "quantity"> & {
  readonly quantity?: number;
};
