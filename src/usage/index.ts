/**
 * Usage metering: meters, ingestion of usage events (one statement per request, deduplicated by
 * the merchant's event id), partitions of the events table, and usage per period. See docs/usage.md.
 */
export { type UsagePeriod, usageForPeriods } from "./aggregate.js";
export { archiveMeter } from "./archive-meter.js";
export { createMeter } from "./create-meter.js";
export { type CurrentUsage, currentUsage } from "./current-usage.js";
export { MAX_BATCH, type UsageEventInput, usageBatchSchema, usageEventSchema } from "./event-input.js";
export { ingestUsage, type UsageResult } from "./ingest.js";
export type { UsageRefusalCode, UsageVerdict } from "./judge-events.js";
export { type ListMetersOptions, listMeters, listMetersOptions } from "./list-meters.js";
export type { CachedMeter } from "./meter-cache.js";
export {
  METER_AGGREGATIONS,
  type MeterAggregation,
  type MeterInput,
  meterInputSchema,
} from "./meter-input.js";
export { MeterExistsError, type StoredMeter, toStoredMeter } from "./meter-record.js";
export { ensureUsagePartitions } from "./partitions.js";
export { pruneUsageKeys, sweepUsage } from "./sweep.js";
export { CLOCK_SKEW_MS, judgeTimestamp, type SubscriptionWindow, type WindowVerdict } from "./window.js";
