import type { Command } from "commander";
import type { Actions } from "./actions.js";
import { uuid } from "./options.js";
import { priceOptions } from "./tier-option.js";

/**
 * `billing plans usage-prices set|unset|list|threshold` (docs/usage.md, "Charging usage"): definitions only,
 * as in commands.ts, so reading a command line loads nothing of the usage-billing service. Added
 * under the `plans` command that commands.ts defines.
 */

export function registerUsagePrices(program: Command, action: Actions): void {
  const plans = program.commands.find((command) => command.name() === "plans");
  if (!plans) throw new Error("the plans command must be registered first");
  const prices = plans
    .command("usage-prices")
    .description("what a plan charges for metered usage, per meter, after each period closes");
  const load = () => import("./actions/usage-prices.js");

  const set = prices
    .command("set")
    .description("price a meter's usage on a plan, or replace its price; prints it")
    .argument("<plan>", "plan id", uuid)
    .argument("<meter>", "meter code (or id)")
    .option(
      "--amount <amount>",
      'a decimal in the plan\'s currency such as "0.05": the price of one unit (per_unit), of one package (package) or of the period (flat); not with tiered or volume',
    );
  priceOptions(set, {
    modelHelp: "how the period's usage is priced",
    defaultModel: "per_unit",
    tierExample: "--tier 1000:0 --tier inf:0.01",
  }).action(action(load, "set"));

  prices
    .command("unset")
    .description("stop charging a meter's usage on a plan (periods not billed yet); prints the price removed")
    .argument("<plan>", "plan id", uuid)
    .argument("<meter>", "meter code (or id)")
    .action(action(load, "unset"));

  prices
    .command("list")
    .description("list a plan's usage prices, in meter code order")
    .argument("<plan>", "plan id", uuid)
    .action(action(load, "list"));

  prices
    .command("threshold")
    .description(
      "charge usage early, in parts, once what an open period has not billed reaches AMOUNT (progressive billing); --clear bills usage at the close only",
    )
    .argument("<plan>", "plan id", uuid)
    .argument("[amount]", 'a decimal in the plan\'s currency such as "500.00"')
    .option("--clear", "remove the threshold")
    .action(action(load, "threshold"));
}
