import { and, eq, isNotNull } from "drizzle-orm";
import { chargeAttempts, charges } from "../db/schema/index.js";
import { RefundError } from "./errors.js";
import { type RefundContext, requestRefund } from "./request-refund.js";
import type { RefundRow } from "./settle.js";

/**
 * Returns a duplicate payment: an approved attempt marked duplicate_at because the gateway applied
 * it late, after another attempt had paid its period (late-payments/). Its own transaction goes back,
 * never the one that paid the charge; the refund carries reason `duplicate`, and its completion is
 * announced as `charge.duplicate_refunded`.
 */
export async function refundDuplicate(
  ctx: RefundContext,
  input: { readonly attemptId: string; readonly actor: string },
): Promise<RefundRow> {
  const [found] = await ctx.db
    .select({ attempt: chargeAttempts, charge: charges })
    .from(chargeAttempts)
    .innerJoin(charges, eq(charges.id, chargeAttempts.chargeId))
    .where(
      and(
        eq(chargeAttempts.id, input.attemptId),
        eq(chargeAttempts.status, "approved"),
        isNotNull(chargeAttempts.duplicateAt),
      ),
    );
  const transactionId = found?.attempt.gatewayTransactionId;
  if (!found || !transactionId) {
    throw new RefundError("charge_not_refundable", `attempt ${input.attemptId} is not a duplicate payment`);
  }
  return requestRefund(ctx, { ...found, transactionId, reason: "duplicate", actor: input.actor });
}
