import { type Command, Option } from "commander";
import type { PriceModelName } from "../billing/price-models.js";
import type { Actions } from "./actions.js";
import { integer, uuid } from "./options.js";
import { tierOption } from "./tier-option.js";

/**
 * `billing plans usage-prices set|unset|list` (docs/usage.md, "Charging usage"): definitions only,
 * as in commands.ts, so reading a command line loads nothing of the usage-billing service. Added
 * under the `plans` command that commands.ts defines.
 */

/** billing/price-models.ts's PRICE_MODELS, spelt out: that module loads zod. */
const PRICE_MODELS = [
  "flat",
  "per_unit",
  "tiered",
  "volume",
  "package",
] as const satisfies readonly PriceModelName[];

export function registerUsagePrices(program: Command, action: Actions): void {
  const plans = program.commands.find((command) => command.name() === "plans");
  if (!plans) throw new Error("the plans command must be registered first");
  const prices = plans
    .command("usage-prices")
    .description("what a plan charges for metered usage, per meter, after each period closes");
  const load = () => import("./actions/usage-prices.js");

  prices
    .command("set")
    .description("price a meter's usage on a plan, or replace its price; prints it")
    .argument("<plan>", "plan id", uuid)
    .argument("<meter>", "meter code (or id)")
    .addOption(
      new Option("--price-model <model>", "how the period's usage is priced")
        .choices(PRICE_MODELS)
        .default("per_unit"),
    )
    .option(
      "--amount <amount>",
      'a decimal in the plan\'s currency such as "0.05": the price of one unit (per_unit), of one package (package) or of the period (flat); not with tiered or volume',
    )
    .option(
      "--tier <UP_TO:UNIT_AMOUNT[:FLAT_AMOUNT]>",
      "tiered and volume: one tier, repeated in order; UP_TO is its last unit, inf for the open last tier (e.g. --tier 1000:0 --tier inf:0.01)",
      tierOption,
    )
    .option("--package-size <n>", "package: units per package", integer(1, 2_147_483_647))
    .action(action(load, "set"));

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
}
