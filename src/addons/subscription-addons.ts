import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import type { Db, Tx } from "../db/index.js";
import { addons, subscriptionAddons, subscriptions } from "../db/schema/index.js";
import { type StoredAddon, toStoredAddon } from "./addon-record.js";

/**
 * Rule: a subscription's add-ons are its rows of subscription_addons not removed, oldest first, the
 * order its charge bills them in (live-addons.ts). Each row holds one quantity from added_at until
 * removed_at; a new quantity is a new row, so the rows removed are the history.
 */
export interface SubscriptionAddon {
  /** The subscription_addons row: this add-on at this quantity. */
  readonly id: string;
  readonly subscriptionId: string;
  readonly addon: StoredAddon;
  readonly quantity: number;
  /** Billing clock; billed from the first period charged after it. */
  readonly addedAt: Date;
  readonly removedAt: Date | null;
  readonly actor: string;
}

type Joined = { row: typeof subscriptionAddons.$inferSelect; addon: typeof addons.$inferSelect };

export function toSubscriptionAddon({ row, addon }: Joined): SubscriptionAddon {
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    addon: toStoredAddon(addon),
    quantity: row.quantity,
    addedAt: row.addedAt,
    removedAt: row.removedAt,
    actor: row.actor,
  };
}

/** The live rows of a subscription, or of one add-on on it. */
export async function liveRows(
  db: Db | Tx,
  subscriptionId: string,
  addonId?: string,
): Promise<SubscriptionAddon[]> {
  const rows = await db
    .select({ row: subscriptionAddons, addon: addons })
    .from(subscriptionAddons)
    .innerJoin(addons, eq(addons.id, subscriptionAddons.addonId))
    .where(
      and(
        eq(subscriptionAddons.subscriptionId, subscriptionId),
        addonId === undefined ? undefined : eq(subscriptionAddons.addonId, addonId),
        isNull(subscriptionAddons.removedAt),
      ),
    )
    .orderBy(asc(subscriptionAddons.addedAt), asc(subscriptionAddons.id));
  return rows.map(toSubscriptionAddon);
}

/** The subscription's live add-ons; null when there is no such subscription. */
export async function listSubscriptionAddons(
  ctx: Pick<EngineContext, "db">,
  subscriptionId: string,
): Promise<SubscriptionAddon[] | null> {
  if (!z.uuid().safeParse(subscriptionId).success) return null;
  const [found] = await ctx.db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  if (!found) return null;
  return liveRows(ctx.db, subscriptionId);
}
