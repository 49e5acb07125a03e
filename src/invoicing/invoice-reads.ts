import { and, asc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../db/index.js";
import { afterCursor, type Page, type PageRequest, toPage } from "../db/keyset.js";
import { charges, invoices } from "../db/schema/index.js";
// The problem itself, not the problems index: that one maps every service's errors.
import { notFound } from "../problems/problem.js";

/**
 * Reads of gateway invoices for the merchant API and the CLI. An invoice is shown with the
 * subscription of its charge, which is how merchants look invoices up; an unknown id is a 404 problem.
 */

export type InvoiceView = typeof invoices.$inferSelect & { subscriptionId: string };

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
