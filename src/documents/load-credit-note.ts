import { eq } from "drizzle-orm";
import { formatDocumentNumber } from "../billing/index.js";
import type { Db } from "../db/index.js";
import {
  chargeAttempts,
  charges,
  creditNotes,
  customers,
  plans,
  receipts,
  refunds,
  subscriptions,
} from "../db/schema/index.js";
import { documentModel } from "./build-model.js";
import { attemptCardLast4, chargeColumns, chargeFacts, customerOf, timeZoneOf } from "./charge-facts.js";
import type { DocumentModel, MerchantIdentity } from "./model.js";

/**
 * The credit note of a refund, found by the refund or by the note's id, ready to print; null when
 * there is none. The payment shown is the one returned: the refund names its attempt, which is not
 * always the one that settled the charge (a late duplicate payment is refunded on its own).
 */
export async function loadCreditNote(
  db: Db,
  key: { refundId: string } | { creditNoteId: string },
  merchant: MerchantIdentity,
): Promise<DocumentModel | null> {
  const [row] = await db
    .select({
      ...chargeColumns,
      number: creditNotes.number,
      issuedAt: creditNotes.issuedAt,
      amountMinor: creditNotes.amountMinor,
      currency: creditNotes.currency,
      taxRateBp: creditNotes.taxRateBp,
      taxLabel: creditNotes.taxLabel,
      refundStatus: refunds.status,
      refundedTransactionId: refunds.refundedTransactionId,
      refundTransactionId: refunds.gatewayRefundTransactionId,
      attemptChannel: chargeAttempts.channel,
      attemptCreatedAt: chargeAttempts.createdAt,
      paidAt: chargeAttempts.settledAt,
      receiptNumber: receipts.number,
    })
    .from(creditNotes)
    .innerJoin(refunds, eq(refunds.id, creditNotes.refundId))
    .innerJoin(chargeAttempts, eq(chargeAttempts.id, refunds.chargeAttemptId))
    .innerJoin(charges, eq(charges.id, creditNotes.chargeId))
    .innerJoin(plans, eq(plans.id, charges.planId))
    .innerJoin(subscriptions, eq(subscriptions.id, charges.subscriptionId))
    .innerJoin(customers, eq(customers.id, creditNotes.customerId))
    .leftJoin(receipts, eq(receipts.chargeId, creditNotes.chargeId))
    .where("refundId" in key ? eq(creditNotes.refundId, key.refundId) : eq(creditNotes.id, key.creditNoteId))
    .limit(1);
  if (!row) return null;
  const attempt = { channel: row.attemptChannel, createdAt: row.attemptCreatedAt };
  return documentModel(
    {
      series: "credit_note",
      number: row.number,
      issuedAt: row.issuedAt,
      amountMinor: row.amountMinor,
      currency: row.currency,
      taxRateBp: row.taxRateBp,
      taxLabel: row.taxLabel,
      timeZone: timeZoneOf(row),
      charge: await chargeFacts(db, row),
      customer: customerOf(row),
      payment: {
        cardLast4: await attemptCardLast4(db, row.subscriptionId, attempt),
        transactionId: row.refundedTransactionId,
        paidAt: row.paidAt,
      },
      refund: {
        refundedTransactionId: row.refundedTransactionId,
        refundTransactionId: row.refundTransactionId,
        receiptNumber: row.receiptNumber === null ? null : formatDocumentNumber("receipt", row.receiptNumber),
        status: row.refundStatus,
      },
    },
    merchant,
  );
}
