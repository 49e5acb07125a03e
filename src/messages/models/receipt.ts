import { eq } from "drizzle-orm";
import { formatDocumentNumber } from "../../billing/index.js";
import { chargeAttempts, charges, plans, receipts } from "../../db/schema/index.js";
import { type ChargeFacts, chargeLines } from "../../documents/build-model.js";
import { attemptCardLast4, chargeFacts } from "../../documents/charge-facts.js";
import type { ReceiptLine } from "../render/index.js";
import type { ModelLoader } from "./source.js";
import { localDate } from "./source.js";

/**
 * receipt: the receipt issued with the payment (numbered in the same transaction), the charge's
 * plan and period, its lines as the receipt document itemises them, and the payment that settled
 * it: when, its gateway transaction, and the card's last digits when a saved card paid (found as
 * the documents find it). Always still relevant: a payment is a fact, even if it is refunded later.
 */
export const receiptModel: ModelLoader = async (ctx, source) => {
  const chargeId = source.chargeId ?? source.event.chargeId;
  if (chargeId === null) return { suppressed: "the event names no charge" };
  const [row] = await ctx.db
    .select({
      receiptId: receipts.id,
      number: receipts.number,
      amountMinor: receipts.amountMinor,
      currency: receipts.currency,
      issuedAt: receipts.issuedAt,
      planName: plans.name,
      chargeKind: charges.kind,
      periodStart: charges.periodStart,
      periodEnd: charges.periodEnd,
      chargeAmountMinor: charges.amountMinor,
      discountMinor: charges.discountMinor,
      discountPercent: charges.discountPercent,
      creditMinor: charges.creditMinor,
      paidAt: charges.paidAt,
      transactionId: charges.paidTransactionId,
      subscriptionId: charges.subscriptionId,
      attemptChannel: chargeAttempts.channel,
      attemptCreatedAt: chargeAttempts.createdAt,
    })
    .from(receipts)
    .innerJoin(charges, eq(charges.id, receipts.chargeId))
    .innerJoin(plans, eq(plans.id, charges.planId))
    .leftJoin(chargeAttempts, eq(chargeAttempts.gatewayTransactionId, charges.paidTransactionId))
    .where(eq(receipts.chargeId, chargeId))
    .limit(1);
  if (!row) return { suppressed: `charge ${chargeId} has no receipt` };
  const attempt =
    row.attemptChannel === null || row.attemptCreatedAt === null
      ? null
      : { channel: row.attemptChannel, createdAt: row.attemptCreatedAt };
  const links = ctx.links.receipt(row.receiptId);
  const facts = await chargeFacts(ctx.db, { ...row, chargeId });
  return {
    model: {
      kind: "receipt",
      receiptNumber: formatDocumentNumber("receipt", row.number),
      amount: { minor: row.amountMinor, currency: row.currency },
      planName: row.planName,
      lines: receiptLines(facts, row.currency),
      periodStart: localDate(row.periodStart, source.zone),
      periodEnd: localDate(row.periodEnd, source.zone),
      paidAt: (row.paidAt ?? row.issuedAt).toISOString(),
      cardLast4: await attemptCardLast4(ctx.db, row.subscriptionId, attempt),
      transactionId: row.transactionId,
      receiptUrl: links.html,
      pdfUrl: links.pdf,
    },
  };
};

/**
 * The rows of the receipt document's table (documents/build-model.ts), so the e-mail adds up as the
 * document does: the stored lines, then the discount and the credit, negative. None for a charge
 * without stored lines: its plan alone, which the e-mail names already.
 */
function receiptLines(facts: ChargeFacts, currency: string): ReceiptLine[] {
  if (facts.lines.length === 0) return [];
  const amount = (minor: number) => ({ minor, currency });
  return chargeLines(facts).flatMap((line): ReceiptLine[] => {
    switch (line.kind) {
      case "item":
        return [
          {
            kind: "item",
            description: line.description,
            quantity: line.quantity,
            amount: amount(line.amountMinor),
          },
        ];
      case "discount":
        return [{ kind: "discount", percent: line.couponPercent, amount: amount(line.amountMinor) }];
      case "credit":
        return [{ kind: "credit", amount: amount(line.amountMinor) }];
      default: // "plan": only for a charge without stored lines
        return [];
    }
  });
}
