import { asc, eq, inArray, type SQL } from "drizzle-orm";
import { z } from "zod";
import { type DocumentSeries, formatDocumentNumber, includedTax } from "../billing/index.js";
import type { Db } from "../db/index.js";
import { creditNotes, receipts } from "../db/schema/index.js";

/**
 * The receipts and credit notes issued, as rows to list and link (the API, the CLI, the ops
 * charge page, the portal); printing one is print-document.ts. The tax shown is the one included
 * in the amount at the rate kept with the document (billing/tax.ts); none at a rate of 0.
 */

interface IssuedFields {
  id: string;
  /** As printed: RCT-000042, CN-000007. */
  number: string;
  chargeId: string;
  customerId: string;
  amountMinor: number;
  currency: string;
  tax: { label: string; rateBp: number; includedMinor: number } | null;
  issuedAt: Date;
}

export type IssuedReceipt = IssuedFields & { kind: "receipt"; refundId: null };
/** A credit note reverses the payment of its refund. */
export type IssuedCreditNote = IssuedFields & { kind: "credit_note"; refundId: string };
export type IssuedDocument = IssuedReceipt | IssuedCreditNote;

export interface ChargeDocuments {
  /** Issued when the charge was paid. */
  receipt: IssuedReceipt | null;
  /** One per refund of its payments the gateway accepted, oldest first. */
  creditNotes: IssuedCreditNote[];
}

interface DocumentRow {
  id: string;
  number: number;
  chargeId: string;
  customerId: string;
  amountMinor: number;
  currency: string;
  taxRateBp: number;
  taxLabel: string;
  issuedAt: Date;
}

function issued(kind: DocumentSeries, row: DocumentRow): IssuedFields {
  return {
    id: row.id,
    number: formatDocumentNumber(kind, row.number),
    chargeId: row.chargeId,
    customerId: row.customerId,
    amountMinor: row.amountMinor,
    currency: row.currency,
    tax:
      row.taxRateBp === 0
        ? null
        : {
            label: row.taxLabel,
            rateBp: row.taxRateBp,
            includedMinor: includedTax(row.amountMinor, row.taxRateBp),
          },
    issuedAt: row.issuedAt,
  };
}

async function receiptsWhere(db: Db, where: SQL): Promise<IssuedReceipt[]> {
  const rows = await db.select().from(receipts).where(where).orderBy(asc(receipts.number));
  return rows.map((row) => ({ ...issued("receipt", row), kind: "receipt", refundId: null }));
}

async function creditNotesWhere(db: Db, where: SQL): Promise<IssuedCreditNote[]> {
  const rows = await db.select().from(creditNotes).where(where).orderBy(asc(creditNotes.number));
  return rows.map((row) => ({ ...issued("credit_note", row), kind: "credit_note", refundId: row.refundId }));
}

const isId = (id: string) => z.uuid().safeParse(id).success;

/** The receipt of a charge; null when it has none (not paid) or there is no such charge. */
export async function receiptOfCharge(db: Db, chargeId: string): Promise<IssuedReceipt | null> {
  if (!isId(chargeId)) return null;
  const [receipt] = await receiptsWhere(db, eq(receipts.chargeId, chargeId));
  return receipt ?? null;
}

/** The credit note of a refund; null when it has none (not accepted by the gateway) or no such refund. */
export async function creditNoteOfRefund(db: Db, refundId: string): Promise<IssuedCreditNote | null> {
  if (!isId(refundId)) return null;
  const [note] = await creditNotesWhere(db, eq(creditNotes.refundId, refundId));
  return note ?? null;
}

/** The documents of each of these charges, in two queries. */
export async function documentsOfCharges(
  db: Db,
  chargeIds: readonly string[],
): Promise<(chargeId: string) => ChargeDocuments> {
  const ids = [...chargeIds];
  const [receiptRows, noteRows] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          receiptsWhere(db, inArray(receipts.chargeId, ids)),
          creditNotesWhere(db, inArray(creditNotes.chargeId, ids)),
        ]);
  return (chargeId) => ({
    receipt: receiptRows.find((row) => row.chargeId === chargeId) ?? null,
    creditNotes: noteRows.filter((row) => row.chargeId === chargeId),
  });
}
