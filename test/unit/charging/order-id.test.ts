import { describe, expect, it } from "vitest";
import { chargeOrderId } from "../../../src/charging/index.js";

describe("chargeOrderId", () => {
  it("derives one orderId per charge and attempt, never reused", () => {
    const charge = "7f1c1e52-3a40-4e0e-9d7e-1f5c1a9b2c3d";
    expect(chargeOrderId(charge, 1)).toBe(`chg_${charge}_1`);
    expect(chargeOrderId(charge, 2)).not.toBe(chargeOrderId(charge, 1));
    expect(chargeOrderId(charge, 1)).toBe(chargeOrderId(charge, 1));
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses attempt number %s", (n) => {
    expect(() => chargeOrderId("c", n)).toThrow(RangeError);
  });

  it("refuses an empty charge id", () => {
    expect(() => chargeOrderId(" ", 1)).toThrow(RangeError);
  });
});
