import { eq } from "drizzle-orm";
import { z } from "zod";
import { formatDocumentNumber } from "../../billing/index.js";
import { creditNotes, receipts, refunds } from "../../db/schema/index.js";
import { type ModelLoader, optional, readData } from "./source.js";

/**
 * refund_issued: a payment went back to the customer; the message carries the credit note issued
 * with the refund (numbered in the same transaction) and the receipt it reverses. `processing`
 * says whether the refund is still under way at the gateway when the message is rendered.
 */
export const refundIssuedModel: ModelLoader = async (ctx, source) => {
  const { refund_id: refundId } = readData({ refund_id: optional(z.uuid()) }, source.event.data);
  if (refundId === undefined) return { suppressed: "the event names no refund" };
  const [row] = await ctx.db
    .select({
      creditNoteId: creditNotes.id,
      number: creditNotes.number,
      amountMinor: creditNotes.amountMinor,
      currency: creditNotes.currency,
      refundStatus: refunds.status,
      receiptNumber: receipts.number,
    })
    .from(creditNotes)
    .innerJoin(refunds, eq(refunds.id, creditNotes.refundId))
    .leftJoin(receipts, eq(receipts.chargeId, creditNotes.chargeId))
    .where(eq(creditNotes.refundId, refundId));
  if (!row) return { suppressed: `refund ${refundId} has no credit note` };
  const links = ctx.links.creditNote(row.creditNoteId);
  return {
    model: {
      kind: "refund_issued",
      amount: { minor: row.amountMinor, currency: row.currency },
      creditNoteNumber: formatDocumentNumber("credit_note", row.number),
      receiptNumber: row.receiptNumber === null ? null : formatDocumentNumber("receipt", row.receiptNumber),
      creditNoteUrl: links.html,
      pdfUrl: links.pdf,
      processing: row.refundStatus === "under_processing",
    },
  };
};
