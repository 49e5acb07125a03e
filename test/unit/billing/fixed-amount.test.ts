import { describe, expect, it } from "vitest";
import { amountFixedByToken } from "../../../src/billing/index.js";

/** When the gateway fixes a subscription's charges: a recurring token, charged by card. */
describe("amountFixedByToken", () => {
  it.each([
    ["charge_automatically", "recurring", "autosave", true],
    ["charge_automatically", "autosave", "recurring", false],
    ["charge_automatically", null, "recurring", true],
    ["charge_automatically", null, "autosave", false],
    ["send_payment_link", "recurring", "recurring", false],
    ["send_payment_link", null, "recurring", false],
  ] as const)("%s, card %s, plan %s: %s", (collectionMethod, cardKind, planBillingMode, fixed) => {
    expect(amountFixedByToken({ collectionMethod, cardKind, planBillingMode })).toBe(fixed);
  });
});
