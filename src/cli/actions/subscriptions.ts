import type { Command } from "commander";
import { findSubscription, listSubscriptions } from "../../api/services/subscriptions.js";
import type { SubscriptionState } from "../../billing/index.js";
import type { Cli } from "../cli.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentSubscription } from "../present.js";

/** `billing subscriptions list|show`: reads, needing the database alone (cancel is apart: the engine). */

export async function list(
  cli: Cli,
  options: { status?: SubscriptionState; customer?: string },
  command: Command,
): Promise<void> {
  const rows = await cli.withDatabase(({ db }) =>
    allPages(async (after) => {
      const page = await listSubscriptions(db, {
        limit: 100,
        starting_after: after,
        status: options.status,
        customer_id: options.customer,
      });
      return { rows: page.data, next: page.has_more ? (page.data.at(-1)?.id ?? null) : null };
    }),
  );
  const shown = rows.map(presentSubscription);
  cli
    .output(command)
    .result({ data: shown }, () =>
      table(shown, [
        "id",
        "status",
        "collection_method",
        "customer_id",
        "plan_id",
        "current_period_end",
        "next_billing_at",
      ]),
    );
}

export async function show(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const shown = presentSubscription(await cli.withDatabase(({ db }) => findSubscription(db, id)));
  cli.output(command).result(shown, () => fields(shown));
}
