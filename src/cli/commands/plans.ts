import { type Command, Option } from "commander";
import { INTERVAL_UNITS } from "../../billing/interval-units.js";
import type { Actions } from "../actions.js";
import { integer } from "../options.js";

export function registerPlans(program: Command, action: Actions): void {
  const plans = program.command("plans").description("the plan catalogue");
  const load = () => import("../actions/plans.js");

  plans
    .command("create")
    .description("create a plan; prints it with its id")
    .requiredOption("--name <name>", "name shown to customers")
    .requiredOption("--amount <amount>", 'price of one period, a decimal such as "100.00"')
    .requiredOption("--currency <code>", "ISO 4217 code, e.g. QAR")
    .addOption(
      new Option("--interval <unit>", "length unit of a period")
        .choices(INTERVAL_UNITS)
        .makeOptionMandatory(),
    )
    .option("--interval-count <n>", "units per period", integer(1, 365), 1)
    .option("--trial-days <n>", "free days before the first charge", integer(0, 730), 0)
    .action(action(load, "create"));

  plans
    .command("list")
    .description("list the plans that take new subscriptions, oldest first")
    .option("--archived", "include archived plans")
    .action(action(load, "list"));
}
