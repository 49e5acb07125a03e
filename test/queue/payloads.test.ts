import { describe, expect, it } from "vitest";
import { MAX_CHARGE_BATCH, payloadSchema } from "../../src/queue/index.js";

describe("payload schemas", () => {
  it("accept the documented shapes", () => {
    const id = "3f0c1f9e-8d5b-4c1e-9a57-2b8f3c4d5e6f";
    expect(payloadSchema("charges").parse({ chargeIds: [id] })).toEqual({ chargeIds: [id] });
    // A job written before charge jobs carried batches is read as a batch of one.
    expect(payloadSchema("charges").parse({ chargeId: id })).toEqual({ chargeIds: [id] });
    expect(payloadSchema("invoices").parse({ chargeId: id })).toEqual({ chargeId: id });
    expect(payloadSchema("token-deactivation").parse({ paymentMethodId: id })).toEqual({
      paymentMethodId: id,
    });
    expect(payloadSchema("webhooks").parse({ deliveryId: id })).toEqual({ deliveryId: id });
    expect(payloadSchema("billing-tick").parse({})).toEqual({});
    expect(payloadSchema("billing-tick").parse({ scheduledAt: "2025-01-01T00:00:00+03:00" })).toEqual({
      scheduledAt: "2025-01-01T00:00:00+03:00",
    });
  });

  it("name the offending field", () => {
    const result = payloadSchema("webhooks").safeParse({ deliveryId: 42 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["deliveryId"]);
    expect(
      payloadSchema("billing-tick").safeParse({ scheduledAt: "tomorrow" }).error?.issues[0]?.path,
    ).toEqual(["scheduledAt"]);
  });

  it("bound a charge batch: at least one id, at most MAX_CHARGE_BATCH", () => {
    const id = "3f0c1f9e-8d5b-4c1e-9a57-2b8f3c4d5e6f";
    const charges = payloadSchema("charges");
    expect(charges.safeParse({ chargeIds: [] }).error?.issues[0]?.path).toEqual(["chargeIds"]);
    expect(charges.safeParse({ chargeIds: Array(MAX_CHARGE_BATCH).fill(id) }).success).toBe(true);
    expect(charges.safeParse({ chargeIds: Array(MAX_CHARGE_BATCH + 1).fill(id) }).success).toBe(false);
  });

  it("drop unknown keys, so a newer producer does not fail an older worker's jobs", () => {
    const id = "3f0c1f9e-8d5b-4c1e-9a57-2b8f3c4d5e6f";
    expect(payloadSchema("charges").parse({ chargeIds: [id], added: true })).toEqual({ chargeIds: [id] });
  });
});
