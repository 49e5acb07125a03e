import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { ChargeRefund, ChargeState } from "../../billing/index.js";
// The modules themselves, not the charging and refunds indexes: a read (`billing charges list`)
// loads what it reads, not the collection services and what they import (queues, the gateway).
import { paymentLinkUrl } from "../../charging/payment-link-url.js";
import type { EngineContext } from "../../context/index.js";
import type { Db } from "../../db/index.js";
import { afterCursor } from "../../db/keyset.js";
import { chargeAttempts, charges, invoices } from "../../db/schema/index.js";
import { chargeRefunds } from "../../refunds/charge-refunds.js";
import { notFound } from "../problem.js";
import { type Page, type PageRequest, toPage } from "./page.js";

/** Reads of charges and invoices for the merchant API. */

/**
 * A charge with its attempts (order ids and gateway transactions): what reconciling our records
 * with the gateway's starts from, without knowing how we build order ids; and its refund state,
 * since a refunded charge stays `paid`.
 */
export type ChargeRow = typeof charges.$inferSelect & { attempts: AttemptSummary[]; refund: ChargeRefund };
export type InvoiceRow = typeof invoices.$inferSelect;

/** The attempts of these charges, in one query, oldest first. */
function attemptsOf(db: Db, chargeIds: string[]) {
  return db
    .select({
      chargeId: chargeAttempts.chargeId,
      attemptNumber: chargeAttempts.attemptNumber,
      orderId: chargeAttempts.orderId,
      status: chargeAttempts.status,
      gatewayTransactionId: chargeAttempts.gatewayTransactionId,
      declineCode: chargeAttempts.declineCode,
      duplicateAt: chargeAttempts.duplicateAt,
      createdAt: chargeAttempts.createdAt,
    })
    .from(chargeAttempts)
    .where(inArray(chargeAttempts.chargeId, chargeIds))
    .orderBy(asc(chargeAttempts.chargeId), asc(chargeAttempts.attemptNumber));
}

export type AttemptSummary = Awaited<ReturnType<typeof attemptsOf>>[number];

async function withAttemptsAndRefunds(db: Db, rows: (typeof charges.$inferSelect)[]): Promise<ChargeRow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [attempts, refundOf] = await Promise.all([attemptsOf(db, ids), chargeRefunds(db, ids)]);
  return rows.map((row) => ({
    ...row,
    attempts: attempts.filter((a) => a.chargeId === row.id),
    refund: refundOf(row.id),
  }));
}

/** What signs payment links: the token vault's key, and where customers reach our server. */
export type LinkSigner = Pick<EngineContext, "vault" | "publicUrl">;

/**
 * The payment link the customer pays the charge through, while it awaits that payment (a charge
 * becomes awaiting_payment only as its link goes out: charging/send-payment-links.ts); null for any
 * other charge, and when no signer is at hand (a CLI read without the token key).
 */
export function paymentLinkOf(row: ChargeRow, signer: LinkSigner | null): string | null {
  if (row.status !== "awaiting_payment" || signer === null) return null;
  return paymentLinkUrl(signer, row.id);
}

export async function findCharge(db: Db, id: string): Promise<ChargeRow> {
  const [row] = await db.select().from(charges).where(eq(charges.id, id));
  if (!row) throw notFound("charge", id);
  const [withTheirs] = await withAttemptsAndRefunds(db, [row]);
  return withTheirs!;
}

export interface ChargeFilter extends PageRequest {
  subscription_id?: string | undefined;
  status?: ChargeState | undefined;
}

export async function listCharges(db: Db, filter: ChargeFilter): Promise<Page<ChargeRow>> {
  const conditions: (SQL | undefined)[] = [
    filter.subscription_id === undefined ? undefined : eq(charges.subscriptionId, filter.subscription_id),
    filter.status === undefined ? undefined : eq(charges.status, filter.status),
    afterCursor(charges, filter.starting_after),
  ];
  const rows = await db
    .select()
    .from(charges)
    .where(and(...conditions))
    .orderBy(asc(charges.createdAt), asc(charges.id))
    .limit(filter.limit + 1);
  const page = toPage(rows, filter.limit);
  return { ...page, data: await withAttemptsAndRefunds(db, page.data) };
}

/** An invoice with the subscription of its charge, which is how merchants look invoices up. */
export type InvoiceView = InvoiceRow & { subscriptionId: string };

const invoiceView = { invoice: invoices, subscriptionId: charges.subscriptionId };

export async function findInvoice(db: Db, id: string): Promise<InvoiceView> {
  const [row] = await db
    .select(invoiceView)
    .from(invoices)
    .innerJoin(charges, eq(charges.id, invoices.chargeId))
    .where(eq(invoices.id, id));
  if (!row) throw notFound("invoice", id);
  return { ...row.invoice, subscriptionId: row.subscriptionId };
}

export interface InvoiceFilter extends PageRequest {
  subscription_id?: string | undefined;
}

/** Invoices belong to charges; filtering by subscription goes through the charge. */
export async function listInvoices(db: Db, filter: InvoiceFilter): Promise<Page<InvoiceView>> {
  const conditions: (SQL | undefined)[] = [
    filter.subscription_id === undefined ? undefined : eq(charges.subscriptionId, filter.subscription_id),
    afterCursor(invoices, filter.starting_after),
  ];
  const rows = await db
    .select(invoiceView)
    .from(invoices)
    .innerJoin(charges, eq(charges.id, invoices.chargeId))
    .where(and(...conditions))
    .orderBy(asc(invoices.createdAt), asc(invoices.id))
    .limit(filter.limit + 1);
  return toPage(
    rows.map((row) => ({ ...row.invoice, subscriptionId: row.subscriptionId })),
    filter.limit,
  );
}
