import { eq } from "drizzle-orm";
import { z } from "zod";
import { MAX_QUANTITY, priceOf } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { sqlOf } from "../db/index.js";
import { subscriptionAddons } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvents } from "../events/index.js";
import { toStoredAddon } from "./addon-record.js";
import { refuseAttach, refuseStatus } from "./attach-rules.js";
import { AddonError } from "./errors.js";
import { findAddonRow } from "./get-addon.js";
import { lockAddonTarget } from "./lock-target.js";
import { liveRows, type SubscriptionAddon } from "./subscription-addons.js";

/**
 * Rule: attaches an add-on to a subscription at a quantity, or changes the quantity it has, in one
 * transaction under the subscription's row lock (attach-rules.ts says what is refused). A new
 * quantity ends the live row (removed_at now) and inserts another, so the history stays. It takes
 * effect from the next period charged: nothing is prorated or charged now. The same quantity as now
 * is answered as it is, with nothing written and no event, so a retried request is harmless.
 * Recorded as `subscription.addon_added` or `subscription.addon_updated`.
 */

export const setSubscriptionAddonInput = z.object({
  subscriptionId: z.uuid(),
  /** The add-on's code (or id). */
  addon: z.string().trim().min(1, { error: "addon must not be empty" }).max(100),
  quantity: z
    .number({ error: "quantity must be a number" })
    .int({ error: "quantity must be a whole number" })
    .min(1, { error: "quantity must be at least 1" })
    .max(MAX_QUANTITY, { error: `quantity must be at most ${MAX_QUANTITY}` }),
  actor: z.string().trim().min(1).max(200),
});

export type SetSubscriptionAddonInput = z.input<typeof setSubscriptionAddonInput>;

export interface SetSubscriptionAddonResult {
  readonly subscriptionAddon: SubscriptionAddon;
  /** What happened: a new add-on, a new quantity, or nothing (the same quantity). */
  readonly change: "added" | "updated" | "unchanged";
  /** The quantity before; null when it was not attached. */
  readonly fromQuantity: number | null;
}

export async function setSubscriptionAddon(
  ctx: Pick<EngineContext, "db" | "clock">,
  input: SetSubscriptionAddonInput,
): Promise<SetSubscriptionAddonResult> {
  const request = setSubscriptionAddonInput.parse(input);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const target = await lockAddonTarget(tx, request.subscriptionId);
    refuseStatus(target);
    const row = await findAddonRow(tx, request.addon, "share");
    if (!row) {
      throw new AddonError(
        "addon_not_found",
        `no add-on ${request.addon}`,
        { addon: request.addon },
        "addon",
      );
    }
    const addon = toStoredAddon(row);
    const [live] = await liveRows(tx, target.id, addon.id);
    if (live && live.quantity === request.quantity) {
      return { subscriptionAddon: live, change: "unchanged", fromQuantity: live.quantity };
    }
    refuseAttach(target, addon, live !== undefined);
    refuseUnpriceable(addon.price, request.quantity, addon.code);

    if (live) {
      await tx
        .update(subscriptionAddons)
        .set({ removedAt: now.toJSDate() })
        .where(eq(subscriptionAddons.id, live.id));
    }
    const [inserted] = await tx
      .insert(subscriptionAddons)
      .values({
        subscriptionId: target.id,
        addonId: addon.id,
        quantity: request.quantity,
        addedAt: now.toJSDate(),
        actor: request.actor,
      })
      .returning();
    if (!inserted) throw new Error("subscription add-on was not stored");

    const refs = { subscription_addon_id: inserted.id, addon_id: addon.id, addon_code: addon.code };
    await recordEvents(sqlOf(tx), [
      {
        type: live ? EVENT_TYPES.subscriptionAddonUpdated : EVENT_TYPES.subscriptionAddonAdded,
        actor: request.actor,
        occurredAt: now,
        subscriptionId: target.id,
        customerId: target.customerId,
        data: live
          ? {
              ...refs,
              replaced_subscription_addon_id: live.id,
              quantity: request.quantity,
              from_quantity: live.quantity,
              to_quantity: request.quantity,
            }
          : { ...refs, quantity: request.quantity },
      },
    ]);
    return {
      subscriptionAddon: {
        id: inserted.id,
        subscriptionId: target.id,
        addon,
        quantity: inserted.quantity,
        addedAt: inserted.addedAt,
        removedAt: null,
        actor: inserted.actor,
      },
      change: live ? "updated" : "added",
      fromQuantity: live?.quantity ?? null,
    };
  });
}

/** A quantity whose period price is past what is priced exactly could never be billed. */
function refuseUnpriceable(price: Parameters<typeof priceOf>[0], quantity: number, code: string): void {
  try {
    priceOf(price, quantity);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new AddonError(
      "quantity_too_large",
      `quantity ${quantity} of add-on ${code} prices a period past the largest amount billed exactly`,
      { addon: code, quantity },
      "quantity",
    );
  }
}
