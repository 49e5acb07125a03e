import type { Command } from "commander";
import { migrateDatabase } from "../../db/index.js";
import { resolveSetup } from "../../runtime/setup.js";
import type { Cli } from "../cli.js";
import { fields } from "../output.js";

/** `billing migrate`: resolves the database as every engine process does, then migrates it. */
export async function run(cli: Cli, _options: unknown, command: Command): Promise<void> {
  const setup = await resolveSetup(cli.io.env, cli.logger);
  try {
    const result = await migrateDatabase(setup.databaseUrl, { logger: cli.logger });
    const shown = {
      database: setup.databaseSource,
      database_created: result.databaseCreated,
      applied: result.applied,
    };
    cli.output(command).result(shown, () => fields(shown));
  } finally {
    await setup.release();
  }
}
