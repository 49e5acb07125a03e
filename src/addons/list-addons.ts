import { and, asc, isNull } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { afterCursor } from "../db/keyset.js";
import { addons } from "../db/schema/index.js";
import { type StoredAddon, toStoredAddon } from "./addon-record.js";

/**
 * Rule: add-ons oldest first, a page at a time, keyset on (created_at, id) as plans are listed;
 * archived ones are left out unless asked for, since they are attached to nothing new.
 */

export const listAddonsOptions = z.strictObject({
  includeArchived: z.boolean().default(false),
  limit: z.number().int().min(1).max(500).default(100),
  /** The id of the last add-on of the previous page. */
  after: z.uuid().optional(),
});

export type ListAddonsOptions = z.input<typeof listAddonsOptions>;

export interface AddonPage {
  addons: StoredAddon[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

export async function listAddons(
  ctx: Pick<EngineContext, "db">,
  options: ListAddonsOptions = {},
): Promise<AddonPage> {
  const { includeArchived, limit, after } = listAddonsOptions.parse(options);
  const rows = await ctx.db
    .select()
    .from(addons)
    .where(and(includeArchived ? undefined : isNull(addons.archivedAt), afterCursor(addons, after)))
    .orderBy(asc(addons.createdAt), asc(addons.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    addons: page.map(toStoredAddon),
    nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
