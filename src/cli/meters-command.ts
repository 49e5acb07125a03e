import { type Command, Option } from "commander";
import type { MeterAggregation } from "../usage/meter-input.js";
import type { Actions } from "./actions.js";

/**
 * `billing meters …` (usage metering, docs/usage.md): definitions only, as in commands.ts, so that
 * reading a command line loads nothing of the usage service. The aggregations are spelt out here;
 * the type keeps them in step with the meters table's enum.
 */
const METER_AGGREGATIONS = [
  "sum",
  "count",
  "max",
  "unique_count",
  "last",
] as const satisfies readonly MeterAggregation[];

export function registerMeters(program: Command, action: Actions): void {
  const meters = program.command("meters").description("what usage is counted in (usage metering)");
  const load = () => import("./actions/meters.js");

  meters
    .command("create")
    .description("create a meter; prints it with its id")
    .requiredOption("--code <code>", "what usage events name it by, e.g. api_calls (a-z, 0-9, _ . -)")
    .requiredOption("--name <name>", "shown to people")
    .addOption(
      new Option(
        "--aggregation <kind>",
        "how a period's events add up: sum of quantities, count of events, max, unique_count of distinct_value, last quantity",
      )
        .choices(METER_AGGREGATIONS)
        .makeOptionMandatory(),
    )
    .action(action(load, "create"));

  meters
    .command("list")
    .description("list the meters that take events, oldest first")
    .option("--archived", "include archived meters")
    .action(action(load, "list"));
}
