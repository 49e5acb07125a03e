import type { EngineContext } from "../context/index.js";
import { SqlState, violates } from "../db/index.js";
import { coupons } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { CouponInputError, parseCouponInput } from "./coupon-input.js";
import { type StoredCoupon, toStoredCoupon } from "./coupon-record.js";
import { CouponError } from "./errors.js";

/**
 * Stores a new coupon from a create-coupon body (snake_case, as the API receives it). Throws
 * CouponInputError naming every bad field, or one whose expiry is not after the billing clock's
 * now (it could never be redeemed); CouponError `coupon_exists` when the code is taken (codes are
 * unique once normalised, archived coupons' too, so a code always means one coupon).
 */
export async function createCoupon(
  ctx: Pick<EngineContext, "db" | "clock" | "config">,
  input: unknown,
  { actor = "system" }: { actor?: string } = {},
): Promise<StoredCoupon> {
  const coupon = parseCouponInput(input, { currencies: ctx.config.GATEWAY_CURRENCIES });
  const now = ctx.clock.now();
  if (coupon.expiresAt && coupon.expiresAt.getTime() <= now.toMillis()) {
    throw new CouponInputError([
      { field: "expires_at", message: `expires_at must be after the billing clock's now (${now.toISO()})` },
    ]);
  }
  const { terms } = coupon;
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(coupons)
        .values({
          code: coupon.code,
          name: coupon.name,
          discountType: terms.type,
          percentOff: terms.type === "percentage" ? terms.percentOff : null,
          amountOffMinor: terms.type === "fixed" ? terms.amountOffMinor : null,
          currency: terms.type === "fixed" ? terms.currency : null,
          duration: coupon.duration,
          durationPeriods: coupon.durationPeriods,
          maxRedemptions: coupon.maxRedemptions,
          expiresAt: coupon.expiresAt,
        })
        .returning();
      if (!row) throw new Error("coupon was not stored");
      await recordEvent(tx, {
        type: "coupon.created",
        actor,
        occurredAt: now,
        data: { coupon_id: row.id, code: row.code },
      });
      return toStoredCoupon(row);
    });
  } catch (error) {
    if (violates(error, SqlState.uniqueViolation, "coupons_code_key")) {
      throw new CouponError("coupon_exists", `a coupon with code ${coupon.code} already exists`, {
        coupon: coupon.code,
      });
    }
    throw error;
  }
}
