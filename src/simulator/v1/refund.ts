import { z } from "zod";
import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import { refundPayment } from "../payments/refunds.js";
import { describeZodError } from "../support/zod-error.js";
import type { SimReply } from "../types.js";
import { badRequest, v1Error } from "./errors.js";

const refundSchema = z.object({
  transaction_id: z.string().refine((value) => value.trim() !== "", "is required"),
  order_id: z.string().refine((value) => value.trim() !== "", "is required"),
});

/**
 * POST /v1/payments/refund: refunds the whole payment. 400 for missing fields, 404 when the merchant
 * has no payment with that transaction_id and order_id, 400 when it did not succeed or is already refunded.
 */
export function refundV1(core: SimulatorCore, merchant: MerchantAccount, body: unknown): SimReply {
  const parsed = refundSchema.safeParse(body);
  if (!parsed.success) return badRequest(`Bad Request: ${describeZodError(parsed.error)}`);
  const { transaction_id: transactionId, order_id: orderId } = parsed.data;
  const payment = core.payments.findByTransaction(merchant.id, transactionId);
  if (!payment || payment.orderId !== orderId)
    return v1Error(404, "Not Found: no payment with this transaction_id and order_id");
  if (payment.status !== "SUCCESS") return badRequest("Bad Request: the payment did not succeed");
  if (payment.refund) return badRequest("Bad Request: the payment is already refunded");
  const refund = refundPayment(core, payment, "refund_v1");
  return {
    status: 200,
    body: {
      status: "SUCCESS",
      result: {
        refund_status: refund.state === "SUCCESS" ? "completed" : "under_processing",
        mode: payment.mode,
        refund_transaction_id: refund.refundTransactionId,
      },
    },
  };
}
