import { type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/**
 * Keyset paging, oldest first (as the plans and customers services page), over tables with
 * `created_at` and a uuid `id`. The cursor is the id of the last row of the previous page; rows
 * created at the same instant are ordered by id, so a page boundary never skips or repeats one,
 * and rows added while paging land at the end. An unknown cursor yields an empty page.
 */

export interface PageRequest {
  limit: number;
  starting_after?: string | undefined;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

interface Keyed {
  id: PgColumn;
  createdAt: PgColumn;
}

export function afterCursor(table: PgTable & Keyed, cursor: string | undefined): SQL | undefined {
  if (cursor === undefined) return undefined;
  return sql`(${table.createdAt}, ${table.id}) > (select c.created_at, c.id from ${table} c where c.id = ${cursor})`;
}

/** Turns `limit + 1` fetched rows into a page, the extra row only telling that more exist. */
export function toPage<T>(rows: T[], limit: number): Page<T> {
  return { data: rows.slice(0, limit), has_more: rows.length > limit };
}
