import { and, asc, isNull } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { afterCursor } from "../db/keyset.js";
import { plans } from "../db/schema/index.js";
import { type StoredPlan, toStoredPlan } from "./plan-record.js";

export const listPlansOptions = z.strictObject({
  /** Archived plans are left out unless asked for: they take no new subscriptions. */
  includeArchived: z.boolean().default(false),
  limit: z.number().int().min(1).max(500).default(100),
  /** The id of the last plan of the previous page. */
  after: z.uuid().optional(),
});

export type ListPlansOptions = z.input<typeof listPlansOptions>;

export interface PlanPage {
  plans: StoredPlan[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * Plans oldest first, a page at a time. The cursor is keyset on (created_at, id), so a plan added
 * while paging neither shifts nor repeats rows. Bad options throw a ZodError naming the field.
 */
export async function listPlans(
  ctx: Pick<EngineContext, "db">,
  options: ListPlansOptions = {},
): Promise<PlanPage> {
  const { includeArchived, limit, after } = listPlansOptions.parse(options);
  const rows = await ctx.db
    .select()
    .from(plans)
    .where(and(includeArchived ? undefined : isNull(plans.archivedAt), afterCursor(plans, after)))
    .orderBy(asc(plans.createdAt), asc(plans.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    plans: page.map(toStoredPlan),
    nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
