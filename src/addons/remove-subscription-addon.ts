import { eq } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { sqlOf } from "../db/index.js";
import { subscriptionAddons } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvents } from "../events/index.js";
import { refuseStatus } from "./attach-rules.js";
import { AddonError } from "./errors.js";
import { findAddonRow } from "./get-addon.js";
import { lockAddonTarget } from "./lock-target.js";
import { liveRows, type SubscriptionAddon } from "./subscription-addons.js";

/**
 * Rule: takes an add-on off a subscription (its live row gets removed_at now, billing clock) under
 * the subscription's row lock; from the next period charged it is no longer billed, and the periods
 * already charged keep their line (no proration, no refund). Refused as attach-rules.ts says for
 * the subscription's status (an archived add-on or a recurring card never stops a removal), and
 * with `addon_not_attached` when the subscription does not carry it. Recorded as
 * `subscription.addon_removed`.
 */

export const removeSubscriptionAddonInput = z.object({
  subscriptionId: z.uuid(),
  addon: z.string().trim().min(1, { error: "addon must not be empty" }).max(100),
  actor: z.string().trim().min(1).max(200),
});

export async function removeSubscriptionAddon(
  ctx: Pick<EngineContext, "db" | "clock">,
  input: z.input<typeof removeSubscriptionAddonInput>,
): Promise<SubscriptionAddon> {
  const request = removeSubscriptionAddonInput.parse(input);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const target = await lockAddonTarget(tx, request.subscriptionId);
    refuseStatus(target);
    const addon = await findAddonRow(tx, request.addon);
    const [live] = addon ? await liveRows(tx, target.id, addon.id) : [];
    if (!addon || !live) {
      throw new AddonError("addon_not_attached", `subscription ${target.id} has no add-on ${request.addon}`, {
        subscription_id: target.id,
        addon: request.addon,
      });
    }
    const removedAt = now.toJSDate();
    await tx.update(subscriptionAddons).set({ removedAt }).where(eq(subscriptionAddons.id, live.id));
    await recordEvents(sqlOf(tx), [
      {
        type: EVENT_TYPES.subscriptionAddonRemoved,
        actor: request.actor,
        occurredAt: now,
        subscriptionId: target.id,
        customerId: target.customerId,
        data: {
          subscription_addon_id: live.id,
          addon_id: live.addon.id,
          addon_code: live.addon.code,
          quantity: live.quantity,
        },
      },
    ]);
    return { ...live, removedAt };
  });
}
