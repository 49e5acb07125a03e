import { describe, expect, it } from "vitest";
import { chargeJobId, invoiceJobId, webhookJobId } from "../../src/queue/index.js";

const ID = "3f0c1f9e-8d5b-4c1e-9a57-2b8f3c4d5e6f";

describe("job ids", () => {
  it("derive from the domain id with a separator BullMQ accepts in custom ids", () => {
    expect(chargeJobId(ID, 3)).toBe(`charge-${ID}-3`);
    expect(invoiceJobId(ID)).toBe(`invoice-${ID}`);
    expect(webhookJobId(ID)).toBe(`webhook-${ID}`);
    for (const id of [chargeJobId(ID, 1), invoiceJobId(ID), webhookJobId(ID)]) {
      expect(id).not.toContain(":");
      expect(String(Number.parseInt(id, 10))).not.toBe(id);
    }
  });

  it("refuse a charge attempt that is not a whole number from 1", () => {
    expect(() => chargeJobId(ID, 0)).toThrow(RangeError);
    expect(() => chargeJobId(ID, 1.5)).toThrow(RangeError);
  });
});
