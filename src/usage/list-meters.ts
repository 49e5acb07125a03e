import { and, asc, isNull } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { afterCursor } from "../db/keyset.js";
import { meters } from "../db/schema/index.js";
import { type StoredMeter, toStoredMeter } from "./meter-record.js";

export const listMetersOptions = z.strictObject({
  /** Archived meters are left out unless asked for: they take no new events. */
  includeArchived: z.boolean().default(false),
  limit: z.number().int().min(1).max(500).default(100),
  /** The id of the last meter of the previous page. */
  after: z.uuid().optional(),
});

export type ListMetersOptions = z.input<typeof listMetersOptions>;

/** Rule: meters oldest first, a page at a time, keyset on (created_at, id) as every list. */
export async function listMeters(
  ctx: Pick<EngineContext, "db">,
  options: ListMetersOptions = {},
): Promise<{ meters: StoredMeter[]; nextCursor: string | null }> {
  const { includeArchived, limit, after } = listMetersOptions.parse(options);
  const rows = await ctx.db
    .select()
    .from(meters)
    .where(and(includeArchived ? undefined : isNull(meters.archivedAt), afterCursor(meters, after)))
    .orderBy(asc(meters.createdAt), asc(meters.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    meters: page.map(toStoredMeter),
    nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
