import type { Command } from "commander";
import { createApiKey } from "../../apikeys/index.js";
import type { Cli } from "../cli.js";
import { fields } from "../output.js";

export function registerKeys(program: Command, cli: Cli): void {
  const keys = program.command("keys").description("API keys of the merchant API");

  keys
    .command("create")
    .description("create an API key; the key is printed this once and cannot be shown again")
    .requiredOption("--name <name>", "what the key is for, e.g. the client's name")
    .option("--read-only", "a key that may only read (GET), for dashboards and reports")
    .action(async (options: { name: string; readOnly?: boolean }, command: Command) => {
      const key = await cli.withDatabase(({ db }) =>
        createApiKey(db, { name: options.name, scope: options.readOnly ? "read_only" : "full" }),
      );
      const shown = { id: key.id, name: key.name, prefix: key.prefix, scope: key.scope, key: key.key };
      const output = cli.output(command);
      output.note("store the key now: only its hash is kept, it cannot be shown again");
      output.result(shown, () => fields(shown));
    });
}
