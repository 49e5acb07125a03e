import type { EngineContext } from "../context/index.js";
import { type ProcessChargeOptions, processChargeBatch } from "./process-charge-batch.js";
import type { ChargeResult } from "./result.js";

/**
 * One charge through the same path as a batch (process-charge-batch.ts), for an operator's retry,
 * a dunning run and tests. What the batch reports as the charge's failure is thrown, so a caller
 * sees ChargeOutcomeUnknownError, GatewayNotReachedError, AttemptInFlightError (retry later) or
 * ChargeNotFoundError exactly as it happened.
 */
export async function processCharge(
  ctx: EngineContext,
  chargeId: string,
  options: ProcessChargeOptions = {},
): Promise<ChargeResult> {
  const { results, failures } = await processChargeBatch(ctx, [chargeId], { ...options, flushMs: 0 });
  if (failures.has(chargeId)) throw failures.get(chargeId);
  const result = results.get(chargeId);
  if (!result) throw new Error(`charge ${chargeId} was processed without a result`);
  return result;
}
