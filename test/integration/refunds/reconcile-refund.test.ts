import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EngineContext } from "../../../src/context/index.js";
import { chargeAttempts, events, refunds } from "../../../src/db/schema/index.js";
import { reconcileRefund, refundCharge } from "../../../src/refunds/index.js";
import { tickAndCheck } from "../../support/tick.js";
import { type ApiHarness, activeSubscription, createApiHarness, paidCharge } from "../api/support.js";

/**
 * Refunds whose answer was never recorded (a reply dropped, a process that died mid-call, an error
 * we could not classify) are settled from the gateway's CheckStatus once the quiet period is over,
 * and the gateway is never asked to refund twice.
 */

let api: ApiHarness;
let subscriptionId: string;
let monthsAhead = 0;
beforeAll(async () => {
  api = await createApiHarness();
  ({ subscriptionId } = await activeSubscription(api, "refunds@example.qa"));
});
afterAll(() => api?.close());
afterEach(() => api.h.simAdmin("DELETE", "/_sim/faults"));

const ACTOR = "test";

interface LedgerRefund {
  refund_transaction_id: string;
  transaction_id: string;
  state: string;
  operation: string;
}

async function ledgerRefunds(transactionId: string): Promise<LedgerRefund[]> {
  const ledger = await api.h.simAdmin<{ refunds: LedgerRefund[] }>("GET", "/_sim/ledger");
  return ledger.refunds.filter((r) => r.transaction_id === transactionId);
}

/** A charge paid at the gateway, with its approved attempt. */
async function paid() {
  monthsAhead += 1;
  const chargeId = await paidCharge(api, subscriptionId, monthsAhead);
  const [attempt] = await api.h.ctx.db
    .select()
    .from(chargeAttempts)
    .where(eq(chargeAttempts.chargeId, chargeId));
  return { chargeId, attempt: attempt!, transactionId: attempt!.gatewayTransactionId! };
}

/** Refunds the charge with the gateway's reply dropped after it refunded: the row ends unknown. */
async function refundWithDroppedReply(chargeId: string) {
  await api.h.simAdmin("POST", "/_sim/faults", { operation: "refund_v1", kind: "apply_then_drop", times: 1 });
  const refund = await refundCharge(api.h.ctx, { chargeId, actor: ACTOR });
  expect(refund).toMatchObject({ status: "unknown", settledAt: null, gatewayRefundTransactionId: null });
  return refund;
}

async function refundRow(id: string) {
  const [row] = await api.h.ctx.db.select().from(refunds).where(eq(refunds.id, id));
  return row!;
}

async function eventsOf(chargeId: string) {
  return api.h.ctx.db.select().from(events).where(eq(events.chargeId, chargeId)).orderBy(events.id);
}

/** Makes the row look as if it was written `minutes` ago (by Postgres's clock, as the quiet period is). */
async function age(refundId: string, minutes: number) {
  await api.h.ctx.db
    .update(refunds)
    .set({ createdAt: sql`now() - make_interval(mins => ${minutes})` })
    .where(eq(refunds.id, refundId));
}

describe("reconciling refunds", () => {
  it("settles a refund whose reply was dropped as completed, with the gateway's refund id, after the quiet period", async () => {
    const { chargeId, transactionId } = await paid();
    const refund = await refundWithDroppedReply(chargeId);
    const [atGateway] = await ledgerRefunds(transactionId);
    expect(atGateway).toMatchObject({ operation: "refund_v1", state: "SUCCESS" });

    // Within the quiet period the call might still be running: nothing is decided.
    expect(await reconcileRefund(api.h.ctx, refund.id)).toEqual({ kind: "too_recent" });
    expect(await tickAndCheck(api.h.ctx, { batchSize: 10 })).toMatchObject({ refundsReconciled: 0 });
    expect((await refundRow(refund.id)).status).toBe("unknown");

    const result = await reconcileRefund(api.h.ctx, refund.id, { quietPeriodMs: 0 });
    expect(result).toMatchObject({
      kind: "settled",
      refund: {
        id: refund.id,
        status: "completed",
        gatewayRefundTransactionId: atGateway!.refund_transaction_id,
        settledAt: expect.any(Date),
      },
    });
    expect(await refundRow(refund.id)).toMatchObject({
      status: "completed",
      gatewayRefundTransactionId: atGateway!.refund_transaction_id,
    });
    expect(await ledgerRefunds(transactionId)).toHaveLength(1);

    const recorded = await eventsOf(chargeId);
    expect(recorded.map((e) => e.type)).toEqual([
      "charge.refund_requested",
      "charge.refund_unknown",
      "charge.refunded",
    ]);
    expect(recorded.at(-1)).toMatchObject({
      actor: "reconciler",
      subscriptionId,
      data: expect.objectContaining({
        refund_id: refund.id,
        refund_status: "completed",
        gateway_refund_transaction_id: atGateway!.refund_transaction_id,
        reconciled: true,
        reconciled_from: "unknown",
      }),
    });

    // Idempotent: a second reconcile (another tick, another process) changes nothing.
    expect(await reconcileRefund(api.h.ctx, refund.id, { quietPeriodMs: 0 })).toMatchObject({
      kind: "not_open",
      refund: { status: "completed" },
    });
    expect(await eventsOf(chargeId)).toHaveLength(3);
  });

  it("settles a requested refund that never reached the gateway as failed; a new refund then succeeds once", async () => {
    const { chargeId, attempt, transactionId } = await paid();
    // What a process that died after committing the row, before sending the call, leaves behind.
    const [stuck] = await api.h.ctx.db
      .insert(refunds)
      .values({
        chargeId,
        chargeAttemptId: attempt.id,
        refundedTransactionId: transactionId,
        amountMinor: 10000,
        currency: "QAR",
        channel: "v1",
        requestedBy: ACTOR,
        createdAt: sql`now() - interval '10 minutes'`,
      })
      .returning();
    await expect(refundCharge(api.h.ctx, { chargeId, actor: ACTOR })).rejects.toMatchObject({
      code: "refund_exists",
      details: { refund_id: stuck!.id, refund_status: "requested" },
    });

    // The default quiet period (2 × GATEWAY_TIMEOUT_MS + 30 s) is long over for a 10-minute-old row.
    const result = await reconcileRefund(api.h.ctx, stuck!.id);
    expect(result).toMatchObject({
      kind: "settled",
      refund: {
        status: "failed",
        gatewayRefundTransactionId: null,
        description: expect.stringContaining("not refunded"),
        settledAt: expect.any(Date),
      },
    });
    expect(await ledgerRefunds(transactionId)).toHaveLength(0);
    const [failedEvent] = (await eventsOf(chargeId)).filter((e) => e.type === "charge.refund_failed");
    expect(failedEvent).toMatchObject({
      actor: "reconciler",
      data: expect.objectContaining({
        refund_id: stuck!.id,
        refund_status: "failed",
        reconciled_from: "requested",
      }),
    });

    const again = await refundCharge(api.h.ctx, { chargeId, actor: ACTOR });
    expect(again).toMatchObject({
      status: "completed",
      gatewayRefundTransactionId: expect.stringMatching(/^\d{12}$/),
    });
    const atGateway = await ledgerRefunds(transactionId);
    expect(atGateway).toHaveLength(1);
    expect(atGateway[0]!.refund_transaction_id).toBe(again.gatewayRefundTransactionId);
    const rows = await api.h.ctx.db.select().from(refunds).where(eq(refunds.chargeId, chargeId));
    expect(rows.map((r) => r.status).sort()).toEqual(["completed", "failed"]);
  });

  it("records unknown, not requested, when the call fails with an unclassified error; the tick settles it", async () => {
    const { chargeId, transactionId } = await paid();
    const real = api.h.ctx.gateway;
    const breaking: EngineContext["gateway"] = {
      ...real,
      v1: {
        ...real.v1,
        // The refund happens at the gateway, then something that is not a GatewayError goes wrong.
        refund: async (input) => {
          await real.v1.refund(input);
          throw new TypeError("cannot read the reply");
        },
      },
    };
    await expect(
      refundCharge({ ...api.h.ctx, gateway: breaking }, { chargeId, actor: ACTOR }),
    ).rejects.toThrow("cannot read the reply");
    const [row] = await api.h.ctx.db.select().from(refunds).where(eq(refunds.chargeId, chargeId));
    expect(row).toMatchObject({
      status: "unknown",
      settledAt: null,
      description: expect.stringContaining("cannot read the reply"),
    });

    await age(row!.id, 10);
    const tick = await tickAndCheck(api.h.ctx, { batchSize: 10 });
    expect(tick.refundsReconciled).toBeGreaterThanOrEqual(1);
    const [atGateway] = await ledgerRefunds(transactionId);
    expect(await refundRow(row!.id)).toMatchObject({
      status: "completed",
      gatewayRefundTransactionId: atGateway!.refund_transaction_id,
    });
    expect(await ledgerRefunds(transactionId)).toHaveLength(1);
  });

  it("leaves a refund open while CheckStatus is unavailable and settles it on a later try", async () => {
    const { chargeId, transactionId } = await paid();
    const refund = await refundWithDroppedReply(chargeId);
    await age(refund.id, 10);
    await api.h.simAdmin("POST", "/_sim/faults", { operation: "CheckStatus", kind: "error5xx" });

    expect(await reconcileRefund(api.h.ctx, refund.id)).toMatchObject({ kind: "unavailable" });
    expect(await tickAndCheck(api.h.ctx, { batchSize: 10 })).toMatchObject({ refundsReconciled: 0 });
    expect(await refundRow(refund.id)).toMatchObject({ status: "unknown", settledAt: null });

    await api.h.simAdmin("DELETE", "/_sim/faults");
    expect(await tickAndCheck(api.h.ctx, { batchSize: 10 })).toMatchObject({ refundsReconciled: 1 });
    expect((await refundRow(refund.id)).status).toBe("completed");
    expect(await ledgerRefunds(transactionId)).toHaveLength(1);
  });

  it("settles a refund made after settlement as under_processing", async () => {
    const { chargeId, transactionId } = await paid();
    // Past midnight GMT and the settlement cutoff: the gateway returns the money in 2 to 4 weeks.
    api.h.clock.advance({ days: 2 });
    const refund = await refundWithDroppedReply(chargeId);
    const [atGateway] = await ledgerRefunds(transactionId);
    expect(atGateway).toMatchObject({ state: "Processing" });

    expect(await reconcileRefund(api.h.ctx, refund.id, { quietPeriodMs: 0 })).toMatchObject({
      kind: "settled",
      refund: { status: "under_processing", gatewayRefundTransactionId: atGateway!.refund_transaction_id },
    });
    expect(await ledgerRefunds(transactionId)).toHaveLength(1);
  });
});
