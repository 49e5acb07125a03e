import { and, asc, eq, type SQL } from "drizzle-orm";
import type { ChargeState } from "../billing/index.js";
import type { Db } from "../db/index.js";
import { afterCursor, type Page, type PageRequest, toPage } from "../db/keyset.js";
import { charges } from "../db/schema/index.js";
// The problem itself, not the problems index: that one maps every service's errors.
import { notFound } from "../problems/problem.js";
import { type ChargeRow, withAttemptsAndRefunds } from "./charge-rows.js";

/**
 * Reads of charges for the merchant API, the CLI and the ops dashboard: each charge with its
 * attempts and refund state, as presentCharge shows it; an unknown id is a 404 problem.
 */

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
