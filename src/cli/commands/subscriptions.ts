import { type Command, Option } from "commander";
import { findSubscription, listSubscriptions } from "../../api/services/subscriptions.js";
import { SUBSCRIPTION_STATES } from "../../billing/index.js";
import { cancelSubscription } from "../../cancellation/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { uuid } from "../options.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentSubscription } from "../present.js";

export function registerSubscriptions(program: Command, cli: Cli): void {
  const subscriptions = program.command("subscriptions").description("customers' subscriptions to plans");

  subscriptions
    .command("list")
    .description("list subscriptions, oldest first")
    .addOption(new Option("--status <status>", "only this status").choices(SUBSCRIPTION_STATES))
    .option("--customer <id>", "only this customer's", uuid)
    .action(async (options, command: Command) => {
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
          table(shown, ["id", "status", "customer_id", "plan_id", "current_period_end", "next_billing_at"]),
        );
    });

  subscriptions
    .command("show")
    .description("show one subscription")
    .argument("<id>", "subscription id", uuid)
    .action(async (id: string, _options, command: Command) => {
      const shown = presentSubscription(await cli.withDatabase(({ db }) => findSubscription(db, id)));
      cli.output(command).result(shown, () => fields(shown));
    });

  subscriptions
    .command("cancel")
    .description("cancel a subscription now (its open charges too), or at the end of the paid period")
    .argument("<id>", "subscription id", uuid)
    .option("--at-period-end", "keep it until the period paid for ends")
    .action(async (id: string, options, command: Command) => {
      const result = await cli.withEngine((ctx) =>
        cancelSubscription(ctx, {
          subscriptionId: id,
          actor: CLI_ACTOR,
          mode: options.atPeriodEnd ? "at_period_end" : "immediately",
        }),
      );
      const shown = {
        id: result.subscriptionId,
        status: result.status,
        cancel_at_period_end: result.cancelAtPeriodEnd,
        effective_at: result.effectiveAt.toISO(),
        unchanged: result.unchanged,
        canceled_charge_ids: result.canceledChargeIds,
        token_deactivations: result.tokenDeactivations,
      };
      cli.output(command).result(shown, () => fields(shown));
    });
}
