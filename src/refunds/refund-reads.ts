import { and, asc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../db/index.js";
import { afterCursor, type Page, type PageRequest, toPage } from "../db/keyset.js";
import { refunds } from "../db/schema/index.js";
// The problem itself, not the problems index: that one maps this service's errors too.
import { notFound } from "../problems/problem.js";
import type { RefundRow } from "./settle.js";

/**
 * Reads of refunds for the merchant API and the CLI: every refund, its charge's and the
 * duplicates'; an unknown id is a 404 problem.
 */

export async function findRefund(db: Db, id: string): Promise<RefundRow> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id));
  if (!row) throw notFound("refund", id);
  return row;
}

export interface RefundFilter extends PageRequest {
  charge_id?: string | undefined;
  status?: RefundRow["status"] | undefined;
  reason?: RefundRow["reason"] | undefined;
}

export async function listRefunds(db: Db, filter: RefundFilter): Promise<Page<RefundRow>> {
  const conditions: (SQL | undefined)[] = [
    filter.charge_id === undefined ? undefined : eq(refunds.chargeId, filter.charge_id),
    filter.status === undefined ? undefined : eq(refunds.status, filter.status),
    filter.reason === undefined ? undefined : eq(refunds.reason, filter.reason),
    afterCursor(refunds, filter.starting_after),
  ];
  const rows = await db
    .select()
    .from(refunds)
    .where(and(...conditions))
    .orderBy(asc(refunds.createdAt), asc(refunds.id))
    .limit(filter.limit + 1);
  return toPage(rows, filter.limit);
}
