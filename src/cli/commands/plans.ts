import { type Command, Option } from "commander";
import { INTERVAL_UNITS } from "../../billing/index.js";
import { createPlan, listPlans } from "../../plans/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { integer } from "../options.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentPlan } from "../present.js";

export function registerPlans(program: Command, cli: Cli): void {
  const plans = program.command("plans").description("the plan catalogue");

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
    .action(async (options, command: Command) => {
      const plan = await cli.withDatabase((ctx) =>
        createPlan(
          ctx,
          {
            name: options.name,
            amount: options.amount,
            currency: String(options.currency).toUpperCase(),
            interval: options.interval,
            interval_count: options.intervalCount,
            trial_days: options.trialDays,
          },
          { actor: CLI_ACTOR },
        ),
      );
      const shown = presentPlan(plan);
      cli.output(command).result(shown, () => fields(shown));
    });

  plans
    .command("list")
    .description("list the plans that take new subscriptions, oldest first")
    .option("--archived", "include archived plans")
    .action(async (options, command: Command) => {
      const plans = await cli.withDatabase((ctx) =>
        allPages(async (after) => {
          const page = await listPlans(ctx, {
            includeArchived: Boolean(options.archived),
            limit: 500,
            after,
          });
          return { rows: page.plans, next: page.nextCursor };
        }),
      );
      const shown = plans.map(presentPlan);
      cli
        .output(command)
        .result({ data: shown }, () =>
          table(shown, ["id", "name", "amount", "currency", "interval", "interval_count", "trial_days"]),
        );
    });
}
