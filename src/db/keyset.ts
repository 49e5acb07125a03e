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
