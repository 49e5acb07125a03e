import { type Command, Option } from "commander";
import { CHARGE_STATES } from "../../billing/charge-states.js";
import type { Actions } from "../actions.js";
import { uuid } from "../options.js";

export function registerCharges(program: Command, action: Actions): void {
  const charges = program
    .command("charges")
    .description("what subscriptions owe per period, and its collection");
  const reads = () => import("../actions/charges.js");
  const collection = () => import("../actions/charge-collection.js");

  charges
    .command("list")
    .description("list charges, oldest first")
    .option("--subscription <id>", "only this subscription's", uuid)
    .addOption(new Option("--status <status>", "only this status").choices(CHARGE_STATES))
    .action(action(reads, "list"));

  charges
    .command("show")
    .description("show one charge")
    .argument("<id>", "charge id", uuid)
    .action(action(reads, "show"));

  charges
    .command("retry")
    .description(
      "collect a charge now, before its scheduled retry (an uncollectible one too, e.g. after a new card)",
    )
    .argument("<id>", "charge id", uuid)
    .action(action(collection, "retry"));

  charges
    .command("reconcile")
    .description(
      "settle a charge held for review (needs_review) from CheckStatus on its attempt; never charges the card",
    )
    .argument("<id>", "charge id", uuid)
    .action(action(collection, "reconcile"));

  charges
    .command("refund")
    .description("return the whole payment of a paid charge through the gateway")
    .argument("<id>", "charge id", uuid)
    .action(action(collection, "refund"));
}
