import { and, asc, isNull } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { afterCursor } from "../db/keyset.js";
import { features } from "../db/schema/index.js";
import { type StoredFeature, toStoredFeature } from "./feature-record.js";

export interface FeaturePage {
  features: StoredFeature[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * Rule: features oldest first, a page at a time (keyset on created_at, id, as plans and coupons);
 * archived ones only when asked for, since no plan grants them any more.
 */
export async function listFeatures(
  ctx: Pick<EngineContext, "db">,
  {
    includeArchived = false,
    limit = 100,
    after,
  }: { includeArchived?: boolean; limit?: number; after?: string },
): Promise<FeaturePage> {
  const rows = await ctx.db
    .select()
    .from(features)
    .where(and(includeArchived ? undefined : isNull(features.archivedAt), afterCursor(features, after)))
    .orderBy(asc(features.createdAt), asc(features.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    features: page.map(toStoredFeature),
    nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
