import { inArray } from "drizzle-orm";
// The module itself, not the billing index: CLI reads (`billing charges list`) load this.
import { type ChargeRefund, chargeRefund, type RefundFact } from "../billing/refund-state.js";
import type { Db, Tx } from "../db/index.js";
import { refunds } from "../db/schema/index.js";

/**
 * The refund state of each of these charges (billing/refund-state.ts), from their refunds in one
 * query (refunds_charge_idx). A charge without a refund reads as never refunded.
 */
export async function chargeRefunds(
  db: Db | Tx,
  chargeIds: readonly string[],
): Promise<(chargeId: string) => ChargeRefund> {
  const rows =
    chargeIds.length === 0
      ? []
      : await db
          .select({
            chargeId: refunds.chargeId,
            status: refunds.status,
            reason: refunds.reason,
            amountMinor: refunds.amountMinor,
          })
          .from(refunds)
          .where(inArray(refunds.chargeId, [...chargeIds]));
  const byCharge = new Map<string, RefundFact[]>();
  for (const row of rows) byCharge.set(row.chargeId, [...(byCharge.get(row.chargeId) ?? []), row]);
  return (chargeId) => chargeRefund(byCharge.get(chargeId) ?? []);
}
