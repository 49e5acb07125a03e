import type { Command } from "commander";
import type { Actions } from "../actions.js";

export function registerMigrate(program: Command, action: Actions): void {
  program
    .command("migrate")
    .description(
      "create the database if missing and apply pending migrations (every engine process also does)",
    )
    .action(action(() => import("../actions/migrate.js"), "run"));
}
