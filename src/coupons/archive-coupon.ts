import { eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { coupons } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { type StoredCoupon, toStoredCoupon } from "./coupon-record.js";
import { couponNamed } from "./get-coupon.js";

/**
 * Archives a coupon: it is redeemed no more, while the discounts already redeemed run their
 * course. Archiving an archived coupon changes nothing. The coupon is named by its id or its code;
 * null when there is no such coupon.
 */
export async function archiveCoupon(
  ctx: Pick<EngineContext, "db" | "clock">,
  { idOrCode, actor }: { idOrCode: string; actor: string },
): Promise<StoredCoupon | null> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(coupons).where(couponNamed(idOrCode)).for("update");
    if (!row) return null;
    if (row.archivedAt) return toStoredCoupon(row);
    const [archived] = await tx
      .update(coupons)
      .set({ archivedAt: now.toJSDate() })
      .where(eq(coupons.id, row.id))
      .returning();
    if (!archived) throw new Error(`coupon ${row.id} was not archived`);
    await recordEvent(tx, {
      type: "coupon.archived",
      actor,
      occurredAt: now,
      data: { coupon_id: row.id, code: row.code },
    });
    return toStoredCoupon(archived);
  });
}
