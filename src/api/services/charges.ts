import { and, asc, eq, type SQL } from "drizzle-orm";
import type { ChargeState } from "../../billing/index.js";
import type { Db } from "../../db/index.js";
import { afterCursor } from "../../db/keyset.js";
import { charges, invoices } from "../../db/schema/index.js";
// The module itself, not the resources index: a read loads what it reads.
import { type ChargeRow, withAttemptsAndRefunds } from "../../resources/charge-rows.js";
import { notFound } from "../problem.js";
import { type Page, type PageRequest, toPage } from "./page.js";

/** Reads of charges and invoices for the merchant API; a charge is shown as src/resources says. */

export { type ChargeRow, type LinkSigner, paymentLinkOf } from "../../resources/charge-rows.js";
export type InvoiceRow = typeof invoices.$inferSelect;

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
