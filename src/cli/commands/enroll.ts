import type { Command } from "commander";
import type { Actions } from "../actions.js";
import { uuid } from "../options.js";

export function registerEnroll(program: Command, action: Actions): void {
  program
    .command("enroll")
    .description(
      "subscribe a customer to a plan and print the checkout link where the card is saved; " +
        "or, with --csv, enroll every row of a file (email,name,phone,plan), safe to run again",
    )
    .option("--customer <id>", "customer id", uuid)
    .option("--plan <id>", "plan id", uuid)
    .option("--csv <file>", "bulk: a CSV with the header email,name,phone,plan (plan is a plan id)")
    .option("--out <file>", "bulk: where to write the checkout links (default <file>.links.csv)")
    .option(
      "--allow-duplicate",
      "subscribe although the customer already has a subscription to the plan that is not canceled",
    )
    .action(action(() => import("../actions/enroll.js"), "run"));
}
