import { type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/**
 * Keyset paging, oldest first, over tables with `created_at` and a uuid `id`: the rows after the
 * one whose id is the cursor (the last row of the previous page). Rows created at the same instant
 * are ordered by id, so a page boundary never skips or repeats one, and rows added while paging land
 * at the end. An unknown cursor yields an empty page. Order by (created_at, id) to match.
 */
export function afterCursor(
  table: PgTable & { id: PgColumn; createdAt: PgColumn },
  cursor: string | undefined,
): SQL | undefined {
  if (cursor === undefined) return undefined;
  return sql`(${table.createdAt}, ${table.id}) > (select c.created_at, c.id from ${table} c where c.id = ${cursor})`;
}

/** A page asked for: `limit` rows after the `starting_after` cursor (afterCursor). */
export interface PageRequest {
  limit: number;
  starting_after?: string | undefined;
}

/** A page read: its rows, and whether more exist after them. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
}

/** Turns `limit + 1` fetched rows into a page, the extra row only telling that more exist. */
export function toPage<T>(rows: T[], limit: number): Page<T> {
  return { data: rows.slice(0, limit), has_more: rows.length > limit };
}
