import type { Command } from "commander";
import type { CollectionMethod } from "../../billing/index.js";
import { setCollectionMethod } from "../../payment-links/index.js";
import { findSubscription, presentSubscription } from "../../resources/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { fields } from "../output.js";

/**
 * `billing subscriptions set-collection-method <id> <method>`: how a subscription pays, through the
 * payment-links service (its waiting charges go out as links, or back to the card). It needs the
 * engine: the links are signed with the token key. Prints the subscription afterwards, whether it
 * changed, and the charges that moved.
 */
export async function set(
  cli: Cli,
  id: string,
  method: CollectionMethod,
  _options: unknown,
  command: Command,
): Promise<void> {
  const { result, row } = await cli.withEngine(async (ctx) => {
    const result = await setCollectionMethod(ctx, { subscriptionId: id, method, actor: CLI_ACTOR });
    return { result, row: await findSubscription(ctx.db, id) };
  });
  const shown = { ...presentSubscription(row), changed: result.changed, charge_ids: result.chargeIds };
  cli.output(command).result(shown, () => fields(shown));
}
