import { z } from "zod";
import { meterAggregation } from "../db/schema/index.js";

/**
 * Rule: a meter is created from `{ code, name, aggregation }`, each field checked here and named
 * when wrong (the API's 400 and the CLI's option errors both come from these messages). The code
 * is what usage events name; it is lower-case and never changes, so it is not trimmed or folded
 * silently: a code that is not already in shape is refused.
 */

/** The database enum's values, so the two cannot drift apart. */
export const METER_AGGREGATIONS = meterAggregation.enumValues;
export type MeterAggregation = (typeof METER_AGGREGATIONS)[number];

/** The meters table's check, meters_code_shape. */
export const METER_CODE = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

export const meterCode = z.string({ error: "meter must be a meter code (a string)" }).regex(METER_CODE, {
  error: "meter code must be 1-64 of a-z, 0-9, _ . - starting with a letter or digit, e.g. api_calls",
});

export const meterInputSchema = z.strictObject({
  code: z
    .string({ error: "code must be a string" })
    .regex(METER_CODE, {
      error: "code must be 1-64 of a-z, 0-9, _ . - starting with a letter or digit, e.g. api_calls",
    })
    .describe("What usage events name the meter by; never changes"),
  name: z
    .string({ error: "name must be a string" })
    .trim()
    .min(1, { error: "name must not be empty" })
    .max(200, { error: "name must be at most 200 characters" })
    .describe("Shown to people"),
  aggregation: z
    .enum(METER_AGGREGATIONS, { error: `aggregation must be one of ${METER_AGGREGATIONS.join(", ")}` })
    .describe(
      "How a period's events add up: sum of quantities, count of events, max quantity, unique_count of distinct_value, or the last quantity",
    ),
});

export type MeterInput = z.output<typeof meterInputSchema>;
