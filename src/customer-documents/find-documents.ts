import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/index.js";
import { charges, refunds } from "../db/schema/index.js";
// The problem itself, not the problems index: that one maps every service's errors.
import { ApiProblem, notFound } from "../problems/problem.js";
import {
  creditNoteOfRefund,
  type IssuedCreditNote,
  type IssuedReceipt,
  receiptOfCharge,
} from "./issued-documents.js";

/**
 * A charge's receipt and a refund's credit note for the merchant API and the CLI, or a 404 saying
 * why there is none: no such charge or refund, or none issued to it yet (a receipt is issued when
 * the charge is paid, a credit note when the gateway accepts the refund); the latter names the state.
 */

const isId = (id: string) => z.uuid().safeParse(id).success;

export async function findReceipt(db: Db, chargeId: string): Promise<IssuedReceipt> {
  const receipt = await receiptOfCharge(db, chargeId);
  if (receipt) return receipt;
  const [charge] = isId(chargeId)
    ? await db.select({ status: charges.status }).from(charges).where(eq(charges.id, chargeId))
    : [];
  if (!charge) throw notFound("charge", chargeId);
  throw new ApiProblem(
    404,
    "receipt_not_issued",
    "No receipt",
    `charge ${chargeId} has no receipt: it is ${charge.status}, and a receipt is issued when a charge is paid`,
    { charge_status: charge.status },
  );
}

export async function findCreditNote(db: Db, refundId: string): Promise<IssuedCreditNote> {
  const note = await creditNoteOfRefund(db, refundId);
  if (note) return note;
  const [refund] = isId(refundId)
    ? await db.select({ status: refunds.status }).from(refunds).where(eq(refunds.id, refundId))
    : [];
  if (!refund) throw notFound("refund", refundId);
  throw new ApiProblem(
    404,
    "credit_note_not_issued",
    "No credit note",
    `refund ${refundId} has no credit note: it is ${refund.status}, and a credit note is issued when the gateway accepts a refund`,
    { refund_status: refund.status },
  );
}
