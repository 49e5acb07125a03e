import { eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { coupons } from "../db/schema/index.js";
import { normaliseCouponCode } from "./coupon-input.js";
import { type StoredCoupon, toStoredCoupon } from "./coupon-record.js";

/**
 * The coupon with this id, or else with this code (matched as codes are stored: trimmed,
 * upper-case), archived or not; null when there is none.
 */
export async function getCoupon(
  ctx: Pick<EngineContext, "db">,
  idOrCode: string,
): Promise<StoredCoupon | null> {
  const [row] = await ctx.db.select().from(coupons).where(couponNamed(idOrCode));
  return row ? toStoredCoupon(row) : null;
}

/** The condition that finds a coupon by its id, or else its code. */
export function couponNamed(idOrCode: string): SQL {
  return z.uuid().safeParse(idOrCode).success
    ? eq(coupons.id, idOrCode)
    : eq(coupons.code, normaliseCouponCode(idOrCode));
}
