import { and, eq } from "drizzle-orm";
import { chargeAttempts, charges } from "../db/schema/index.js";
import { RefundError } from "./errors.js";
import { type RefundContext, requestRefund } from "./request-refund.js";
import type { RefundRow } from "./settle.js";

/**
 * Returns the whole payment of a paid charge, on the merchant's request (API, CLI): the payment
 * that paid it (charges.paid_transaction_id and its approved attempt) goes back through
 * requestRefund (request-refund.ts), which records the refund before calling the gateway.
 */

export type { RefundRow } from "./settle.js";

export interface RefundChargeInput {
  chargeId: string;
  /** As in events: "api:<key id>", "cli", … */
  actor: string;
}

async function refundablePayment(db: RefundContext["db"], chargeId: string) {
  const [charge] = await db.select().from(charges).where(eq(charges.id, chargeId));
  if (!charge)
    throw new RefundError("charge_not_found", `no charge with id ${chargeId}`, { resource: "charge" });
  if (charge.status !== "paid" || charge.paidTransactionId === null) {
    throw new RefundError(
      "charge_not_refundable",
      `charge ${chargeId} is ${charge.status}; only a paid charge can be refunded`,
      { charge_status: charge.status },
    );
  }
  const [attempt] = await db
    .select()
    .from(chargeAttempts)
    .where(
      and(
        eq(chargeAttempts.chargeId, chargeId),
        eq(chargeAttempts.status, "approved"),
        eq(chargeAttempts.gatewayTransactionId, charge.paidTransactionId),
      ),
    );
  if (!attempt) {
    throw new RefundError(
      "charge_not_refundable",
      `charge ${chargeId} has no approved gateway payment to refund`,
      { charge_status: charge.status },
    );
  }
  return { charge, attempt, transactionId: charge.paidTransactionId };
}

export async function refundCharge(ctx: RefundContext, input: RefundChargeInput): Promise<RefundRow> {
  const { charge, attempt, transactionId } = await refundablePayment(ctx.db, input.chargeId);
  return requestRefund(ctx, { charge, attempt, transactionId, reason: "requested", actor: input.actor });
}
