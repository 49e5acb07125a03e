import { and, eq, inArray, lte, or } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { chargeAttempts, charges } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  attemptsOf,
  CARDS,
  type CardSubscription,
  chargesOf,
  collections,
  createSubscription,
  eventually,
} from "./fixtures.js";

const START = DateTime.fromISO("2026-01-15T09:00:00Z", { zone: "utc" });

/**
 * A gateway that takes the payment but answers a bare `{"result": 0}` (the simulator's
 * bare_decline_applied fault). Trusted as a decline, the next attempt charged the card again. The
 * reply lacks the transactionid and description a decline carries, so its outcome is unknown and
 * CheckStatus settles it: every period is paid exactly once, and a card the gateway really declined
 * gets a decline that names its payment.
 */
describe("bare declines for payments the gateway applied", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness({ start: START.toISO()! });
    startChargeWorker(h.ctx, { concurrency: 4, ratePerSecond: 100 });
  });
  afterEach(() => h?.close());

  const tick = () => runBillingTick(h.ctx, { batchSize: 10 });

  /** Waits until no charge is due or processing and no attempt is open: each outcome is recorded. */
  async function settled(): Promise<void> {
    await eventually(async () => {
      const open = await h.ctx.db
        .select({ id: chargeAttempts.id })
        .from(chargeAttempts)
        .where(inArray(chargeAttempts.status, ["in_flight", "unknown"]));
      const waiting = await h.ctx.db
        .select({ id: charges.id, status: charges.status })
        .from(charges)
        .where(
          or(
            eq(charges.status, "processing"),
            and(
              inArray(charges.status, ["scheduled", "retrying"]),
              lte(charges.nextAttemptAt, h.clock.now().toJSDate()),
            ),
          ),
        );
      expect([...open, ...waiting]).toEqual([]);
    });
  }

  it("pays every period exactly once, through dunning and the next period", async () => {
    const paying: CardSubscription[] = [];
    for (let i = 0; i < 4; i++) paying.push(await createSubscription(h));
    const declining = await createSubscription(h, { card: CARDS.alwaysDeclined });
    await h.simAdmin("POST", "/_sim/faults", { operation: "GetnewPayment", kind: "bare_decline_applied" });

    await tick();
    await settled();
    // Every dunning retry comes and goes: a period believed declined would be charged again here.
    for (const days of [1, 3, 5, 7]) {
      h.clock.set(START.plus({ days }).toJSDate());
      await tick();
      await settled();
    }
    h.clock.set(START.plus({ months: 1 }).toJSDate());
    await tick();
    await settled();

    for (const sub of paying) {
      const periods = await chargesOf(h, sub.subscriptionId);
      const ledger = await collections(h, sub.cardToken);
      // One collection per period, never a second attempt of one.
      expect(ledger.map((p) => p.order_id)).toEqual(periods.map((c) => `chg_${c.id}_1`));
      expect(ledger.map((p) => p.status)).toEqual(["SUCCESS", "SUCCESS"]);
      expect(periods.map((c) => c.status)).toEqual(["paid", "paid"]);
      expect(periods.map((c) => c.paidTransactionId)).toEqual(ledger.map((p) => p.transaction_id));
      for (const period of periods) {
        expect(await attemptsOf(h, period.id)).toMatchObject([{ attemptNumber: 1, status: "approved" }]);
      }
    }

    // The card that declines: each bare reply became a decline naming its FAILURE payment.
    const [unpaid] = await chargesOf(h, declining.subscriptionId);
    expect(unpaid!.status).toBe("uncollectible");
    const ledger = await collections(h, declining.cardToken);
    const attempts = await attemptsOf(h, unpaid!.id);
    expect(attempts.map((a) => a.status)).toEqual(Array(5).fill("declined"));
    expect(attempts.map((a) => a.gatewayTransactionId)).toEqual(ledger.map((p) => p.transaction_id));
    expect(ledger.every((p) => p.status === "FAILURE")).toBe(true);
  });
});
