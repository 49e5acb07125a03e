import type { Command } from "commander";
import {
  createMeter,
  listMeters,
  type MeterAggregation,
  MeterExistsError,
  type StoredMeter,
} from "../../usage/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError } from "../errors.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";

/** `billing meters …`: the meters of usage metering, through the usage service. */

const present = (meter: StoredMeter) => ({
  id: meter.id,
  code: meter.code,
  name: meter.name,
  aggregation: meter.aggregation,
  created_at: meter.createdAt.toISOString(),
  archived_at: meter.archivedAt?.toISOString() ?? null,
});

export async function create(
  cli: Cli,
  options: { code: string; name: string; aggregation: MeterAggregation },
  command: Command,
): Promise<void> {
  const meter = await cli
    .withDatabase((ctx) => createMeter(ctx, options, { actor: CLI_ACTOR }))
    .catch((error: unknown) => {
      // A taken code is the --code option's fault.
      if (error instanceof MeterExistsError) throw new CliError(`--code: ${error.message}`);
      throw error;
    });
  const shown = present(meter);
  cli.output(command).result(shown, () => fields(shown));
}

export async function list(cli: Cli, options: { archived?: boolean }, command: Command): Promise<void> {
  const meters = await cli.withDatabase((ctx) =>
    allPages(async (after) => {
      const page = await listMeters(ctx, { includeArchived: Boolean(options.archived), limit: 500, after });
      return { rows: page.meters, next: page.nextCursor };
    }),
  );
  const shown = meters.map(present);
  cli
    .output(command)
    .result({ data: shown }, () => table(shown, ["id", "code", "name", "aggregation", "archived_at"]));
}
