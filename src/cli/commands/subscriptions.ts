import { type Command, Option } from "commander";
import { SUBSCRIPTION_STATES } from "../../billing/subscription-states.js";
import type { Actions } from "../actions.js";
import { uuid } from "../options.js";

export function registerSubscriptions(program: Command, action: Actions): void {
  const subscriptions = program.command("subscriptions").description("customers' subscriptions to plans");
  const reads = () => import("../actions/subscriptions.js");

  subscriptions
    .command("list")
    .description("list subscriptions, oldest first")
    .addOption(new Option("--status <status>", "only this status").choices(SUBSCRIPTION_STATES))
    .option("--customer <id>", "only this customer's", uuid)
    .action(action(reads, "list"));

  subscriptions
    .command("show")
    .description("show one subscription")
    .argument("<id>", "subscription id", uuid)
    .action(action(reads, "show"));

  subscriptions
    .command("cancel")
    .description("cancel a subscription now (its open charges too), or at the end of the paid period")
    .argument("<id>", "subscription id", uuid)
    .option("--at-period-end", "keep it until the period paid for ends")
    .action(action(() => import("../actions/subscription-cancel.js"), "cancel"));
}
