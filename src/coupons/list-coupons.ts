import { and, asc, isNull } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { afterCursor } from "../db/keyset.js";
import { coupons } from "../db/schema/index.js";
import { type StoredCoupon, toStoredCoupon } from "./coupon-record.js";

export const listCouponsOptions = z.strictObject({
  /** Archived coupons are left out unless asked for: they take no new redemptions. */
  includeArchived: z.boolean().default(false),
  limit: z.number().int().min(1).max(500).default(100),
  /** The id of the last coupon of the previous page. */
  after: z.uuid().optional(),
});

export type ListCouponsOptions = z.input<typeof listCouponsOptions>;

export interface CouponPage {
  coupons: StoredCoupon[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** Coupons oldest first, a page at a time, keyset on (created_at, id) as plans are listed. */
export async function listCoupons(
  ctx: Pick<EngineContext, "db">,
  options: ListCouponsOptions = {},
): Promise<CouponPage> {
  const { includeArchived, limit, after } = listCouponsOptions.parse(options);
  const rows = await ctx.db
    .select()
    .from(coupons)
    .where(and(includeArchived ? undefined : isNull(coupons.archivedAt), afterCursor(coupons, after)))
    .orderBy(asc(coupons.createdAt), asc(coupons.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    coupons: page.map(toStoredCoupon),
    nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
