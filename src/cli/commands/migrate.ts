import type { Command } from "commander";
import { migrateDatabase } from "../../db/index.js";
import { resolveSetup } from "../../runtime/setup.js";
import type { Cli } from "../cli.js";
import { fields } from "../output.js";

export function registerMigrate(program: Command, cli: Cli): void {
  program
    .command("migrate")
    .description(
      "create the database if missing and apply pending migrations (every engine process also does)",
    )
    .action(async (_options, command: Command) => {
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
    });
}
