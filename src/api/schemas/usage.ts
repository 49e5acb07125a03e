import { z } from "zod";
import { METER_AGGREGATIONS, type StoredMeter, type UsageResult } from "../../usage/index.js";
import { iso, pageOf, pageQuery, timestamp } from "./common.js";

/** Meters and usage events (src/usage, docs/usage.md). */

export const meterSchema = z
  .object({
    id: z.uuid(),
    code: z.string().describe("What usage events name the meter by"),
    name: z.string(),
    aggregation: z.enum(METER_AGGREGATIONS),
    created_at: timestamp,
    archived_at: timestamp.nullable().describe("Set once the meter takes no new events"),
  })
  .meta({ id: "Meter" });

export function presentMeter(meter: StoredMeter): z.infer<typeof meterSchema> {
  return {
    id: meter.id,
    code: meter.code,
    name: meter.name,
    aggregation: meter.aggregation,
    created_at: iso(meter.createdAt),
    archived_at: iso(meter.archivedAt),
  };
}

export const meterListQuery = pageQuery.extend({
  include_archived: z.stringbool().default(false).describe("Also list archived meters"),
});

export const meterPage = pageOf(meterSchema);

export const meterParams = z.object({
  id: z.string().min(1).max(100).describe("The meter's id, or its code"),
});

const REFUSAL_CODES = [
  "unknown_meter",
  "meter_archived",
  "distinct_value_required",
  "subscription_not_found",
  "no_live_subscription",
  "ambiguous_customer",
  "subscription_not_live",
  "no_open_period",
  "timestamp_in_future",
  "period_not_open",
  "period_closed",
] as const satisfies readonly Extract<UsageResult, { status: "refused" }>["code"][];

export const usageResultSchema = z
  .object({
    id: z.string().describe("The event's id, as sent"),
    status: z
      .enum(["accepted", "duplicate", "refused"])
      .describe(
        "accepted: recorded now; duplicate: this id was already recorded for the subscription; refused: see code",
      ),
    code: z.enum(REFUSAL_CODES).optional().describe("Why it was refused"),
    reason: z.string().optional(),
    field: z.string().optional().describe("The field at fault, e.g. events.3.timestamp"),
  })
  .meta({ id: "UsageResult" });

export const usageBatchReply = z
  .object({
    accepted: z.number().int(),
    duplicates: z.number().int(),
    refused: z.number().int(),
    results: z.array(usageResultSchema).describe("One per event, in the order sent"),
  })
  .meta({ id: "UsageBatchResult" });

/** A batch's answer; each refusal names its field inside the batch (events.3.meter). */
export function presentBatch(results: readonly UsageResult[]): z.infer<typeof usageBatchReply> {
  let accepted = 0;
  let duplicates = 0;
  const shown = results.map((result, index) => {
    if (result.status === "refused") return { ...result, field: `events.${index}.${result.field}` };
    if (result.status === "accepted") accepted += 1;
    else duplicates += 1;
    return { id: result.id, status: result.status };
  });
  return { accepted, duplicates, refused: results.length - accepted - duplicates, results: shown };
}

export const currentUsageSchema = z
  .object({
    subscription_id: z.uuid(),
    period_start: timestamp.nullable().describe("The current period; null before the first one"),
    period_end: timestamp.nullable(),
    meters: z
      .array(
        z.object({
          meter: z.string().describe("The meter's code"),
          aggregation: z.enum(METER_AGGREGATIONS),
          value: z.number().int(),
        }),
      )
      .describe("Meters with usage in the period so far, by code"),
  })
  .meta({ id: "CurrentUsage" });
