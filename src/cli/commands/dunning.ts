import type { Command } from "commander";
import type { Actions } from "../actions.js";
import { uuid } from "../options.js";

export function registerDunning(program: Command, action: Actions): void {
  const dunning = program.command("dunning").description("collecting charges whose payment failed");

  dunning
    .command("run")
    .description("collect now the retrying charges whose retry is due (or all of them with --all)")
    .option("--dry-run", "only list the charges that would be collected")
    .option("--all", "every retrying charge, not only those due")
    .option("--subscription <id>", "only this subscription's charges", uuid)
    .option("--customer <id>", "only this customer's charges", uuid)
    .action(action(() => import("../actions/dunning.js"), "run"));
}
