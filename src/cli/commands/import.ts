import type { Command } from "commander";
import { IMPORT_COLUMNS } from "../../imports/columns.js";
import type { Actions } from "../actions.js";

export function registerImport(program: Command, action: Actions): void {
  program
    .command("import")
    .description(
      "import subscriptions moving from another billing system with the card tokens the gateway " +
        "already issued; tokens are sealed on the way in; safe to run again on the same file",
    )
    .requiredOption(
      "--csv <file>",
      `a CSV with the header ${IMPORT_COLUMNS.join(",")} (email, plan, card_token required)`,
    )
    .option("--dry-run", "validate and report; write nothing")
    .action(action(() => import("../actions/import.js"), "run"));
}
