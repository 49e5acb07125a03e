import { describe, expect, it } from "vitest";
import { type ChargeRefund, chargeRefund, type RefundFact } from "../../../src/billing/refund-state.js";

const refund = (
  status: RefundFact["status"],
  amountMinor = 10_000,
  reason: RefundFact["reason"] = "requested",
) => ({
  status,
  reason,
  amountMinor,
});

const state = (status: ChargeRefund["status"], refundedMinor = 0, processing = false): ChargeRefund => ({
  status,
  refundedMinor,
  processing,
});

describe("chargeRefund", () => {
  it.each([
    ["never refunded", [], state(null)],
    ["requested, the call on its way", [refund("requested")], state("refund_pending")],
    ["unknown, the answer lost", [refund("unknown")], state("refund_pending")],
    ["completed", [refund("completed")], state("refunded", 10_000)],
    [
      "under_processing reads refunded, still processing",
      [refund("under_processing")],
      state("refunded", 10_000, true),
    ],
    ["failed", [refund("failed")], state("refund_failed")],
    ["failed twice", [refund("failed"), refund("failed")], state("refund_failed")],
    ["failed, then asked again", [refund("failed"), refund("requested")], state("refund_pending")],
    ["failed, then completed", [refund("failed"), refund("completed")], state("refunded", 10_000)],
    [
      "only completed money counts",
      [refund("failed", 5_000), refund("completed", 10_000)],
      state("refunded", 10_000),
    ],
    [
      "a duplicate payment's refund is not the charge's",
      [refund("completed", 10_000, "duplicate")],
      state(null),
    ],
    [
      "a duplicate's refund beside the charge's own",
      [refund("completed", 10_000, "duplicate"), refund("unknown")],
      state("refund_pending"),
    ],
    [
      "completed and under_processing together",
      [refund("completed", 4_000), refund("under_processing", 6_000)],
      state("refunded", 10_000, true),
    ],
    ["a zero-decimal currency is summed as is", [refund("completed", 7)], state("refunded", 7)],
  ] as const)("%s", (_name, refunds, expected) => {
    expect(chargeRefund(refunds)).toEqual(expected);
  });
});
