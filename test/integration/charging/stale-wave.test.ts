import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AttemptInFlightError,
  type GatewayLimiter,
  processChargeBatch,
} from "../../../src/charging/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { attemptsOf, chargesOf, collections, createSubscription } from "./fixtures.js";

/**
 * A wave whose attempts were claimed longer ago than a gateway call may last (the process stalled,
 * or its host was cut off, between the claim and the send) is not sent: another worker may already
 * be reconciling those attempts. They stay in flight, and reconciliation settles them once quiet.
 */
let h: EngineHarness;
beforeAll(async () => {
  h = await createEngineHarness({ gatewayTimeoutMs: 1_000 });
});
afterAll(() => h?.close());

/** A limiter whose wave takes longer than a gateway call to go out (as a stalled Redis would). */
const stalled: GatewayLimiter = {
  take: async (max) => max,
  wave: async (max) => ({ count: max, sending: () => new Promise((resolve) => setTimeout(resolve, 1_200)) }),
  give: () => undefined,
  run: (call) => call(),
  throttled: () => undefined,
};

describe("a claimed wave that waited too long", () => {
  it("is left in flight for reconciliation, then charged once", async () => {
    const sub = await createSubscription(h, { amountMinor: 10_000 });
    await runBillingTick(h.ctx, { batchSize: 10 });
    const [charge] = await chargesOf(h, sub.subscriptionId);

    const late = await processChargeBatch(h.ctx, [charge!.id], { limiter: stalled });
    expect(late.failures.get(charge!.id)).toBeInstanceOf(AttemptInFlightError);
    expect((await attemptsOf(h, charge!.id)).map((attempt) => attempt.status)).toEqual(["in_flight"]);
    expect(await collections(h, sub.cardToken)).toEqual([]);

    // Once quiet, CheckStatus does not know the order: released, and the next attempt pays.
    await processChargeBatch(h.ctx, [charge!.id], { quietPeriodMs: 0 });
    expect((await attemptsOf(h, charge!.id)).map((attempt) => attempt.status)).toEqual([
      "failed_permanently",
      "approved",
    ]);
    expect(await collections(h, sub.cardToken)).toHaveLength(1);
  });
});
