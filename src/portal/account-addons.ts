import { liveAddons } from "../addons/index.js";
import { priceOf } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";

/**
 * Rule: the add-ons a subscription carries now (not removed), oldest first, each priced for one
 * period at its own price model and quantity, exactly as its next period's charge bills it
 * (addons/live-addons.ts, read the same way by the scheduler and the preview). One query for all
 * of a customer's subscriptions.
 */

export interface AccountAddon {
  readonly code: string;
  readonly name: string;
  readonly quantity: number;
  /** One period at `quantity`, in minor units of `currency`. */
  readonly amountMinor: number;
  readonly currency: string;
}

export async function accountAddons(
  ctx: Pick<EngineContext, "db">,
  subscriptionIds: readonly string[],
): Promise<Map<string, AccountAddon[]>> {
  const live = await liveAddons(ctx.db.$client, subscriptionIds);
  return new Map(
    [...live].map(([subscriptionId, addons]) => [
      subscriptionId,
      addons.map((addon) => ({
        code: addon.code,
        name: addon.name,
        quantity: addon.quantity,
        amountMinor: priceOf(addon.price, addon.quantity),
        currency: addon.currency,
      })),
    ]),
  );
}
