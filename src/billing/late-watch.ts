import type { Config } from "../config/index.js";
import { type LateWatchPolicy, lateWatchDelaySeconds } from "./late-payment.js";

/**
 * The late-payment watch as configured (LATE_PAYMENT_*). An attempt released because CheckStatus
 * did not know its orderId is first asked about again this many seconds later (null: the watch is
 * off); the late-payments sweep carries on from there.
 */
export function lateWatchPolicy(
  config: Pick<
    Config,
    | "LATE_PAYMENT_WATCH_HOURS"
    | "LATE_PAYMENT_FIRST_CHECK_SECONDS"
    | "LATE_PAYMENT_MAX_CHECK_INTERVAL_SECONDS"
  >,
): LateWatchPolicy {
  return {
    windowSeconds: config.LATE_PAYMENT_WATCH_HOURS * 3600,
    firstDelaySeconds: config.LATE_PAYMENT_FIRST_CHECK_SECONDS,
    maxDelaySeconds: config.LATE_PAYMENT_MAX_CHECK_INTERVAL_SECONDS,
  };
}

export function firstLateCheckSeconds(config: Parameters<typeof lateWatchPolicy>[0]): number | null {
  return lateWatchDelaySeconds(lateWatchPolicy(config), 0, 0);
}
