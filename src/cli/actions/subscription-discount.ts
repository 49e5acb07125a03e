import type { Command } from "commander";
import { applyCoupon, removeDiscount } from "../../coupons/index.js";
// The modules themselves, not the resources index: a database command loads what it uses.
import { presentSubscription } from "../../resources/subscription.js";
import { findSubscription } from "../../resources/subscription-reads.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { fields } from "../output.js";

/**
 * `billing subscriptions apply-coupon|remove-discount`: a subscription's discount, through the
 * coupons service; each prints the subscription as it is afterwards.
 */

export async function apply(
  cli: Cli,
  id: string,
  options: { coupon: string },
  command: Command,
): Promise<void> {
  const row = await cli.withDatabase(async (ctx) => {
    await applyCoupon(ctx, { subscriptionId: id, code: options.coupon, actor: CLI_ACTOR });
    return findSubscription(ctx.db, id);
  });
  const shown = presentSubscription(row);
  cli.output(command).result(shown, () => fields(shown));
}

export async function remove(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const row = await cli.withDatabase(async (ctx) => {
    await removeDiscount(ctx, { subscriptionId: id, actor: CLI_ACTOR });
    return findSubscription(ctx.db, id);
  });
  const shown = presentSubscription(row);
  cli.output(command).result(shown, () => fields(shown));
}
