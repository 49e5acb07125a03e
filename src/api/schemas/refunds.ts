import { z } from "zod";
import { refundReason, refundStatus } from "../../db/schema/index.js";
import type { RefundRow } from "../../refunds/index.js";
import { iso, moneySchema, pageOf, pageQuery, presentMoney, timestamp } from "./common.js";

/**
 * A refund as the API shows it (POST /v1/charges/:id/refund, GET /v1/refunds): one return of a
 * whole gateway payment, the charge's own or a duplicate's.
 */
export const refundSchema = z
  .object({
    id: z.uuid(),
    charge_id: z.uuid(),
    reason: z
      .enum(refundReason.enumValues)
      .describe(
        "requested: by the merchant; duplicate: a payment the gateway applied late, returned automatically",
      ),
    refund_status: z
      .enum(refundStatus.enumValues)
      .describe(
        "requested: recorded, the gateway's answer not in yet; completed: money returned; under_processing: accepted after settlement, being returned; failed: refused or never reached the gateway; unknown: the gateway's answer was lost, the engine reconciles it",
      ),
    amount: moneySchema,
    refunded_transaction_id: z.string(),
    gateway_refund_transaction_id: z.string().nullable(),
    description: z.string().nullable(),
    created_at: timestamp,
    settled_at: timestamp.nullable(),
  })
  .meta({ id: "Refund" });

export function presentRefund(row: RefundRow): z.infer<typeof refundSchema> {
  return {
    id: row.id,
    charge_id: row.chargeId,
    reason: row.reason,
    refund_status: row.status,
    amount: presentMoney(row.amountMinor, row.currency),
    refunded_transaction_id: row.refundedTransactionId,
    gateway_refund_transaction_id: row.gatewayRefundTransactionId,
    description: row.description,
    created_at: iso(row.createdAt),
    settled_at: iso(row.settledAt),
  };
}

export const refundListQuery = pageQuery.extend({
  charge_id: z.uuid().optional(),
  status: z.enum(refundStatus.enumValues).optional().describe("Only refunds with this refund_status"),
  reason: z.enum(refundReason.enumValues).optional(),
});

export const refundPage = pageOf(refundSchema);
