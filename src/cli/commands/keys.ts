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
    .action(async (options, command: Command) => {
      const key = await cli.withDatabase(({ db }) => createApiKey(db, { name: options.name }));
      const shown = { id: key.id, name: key.name, prefix: key.prefix, key: key.key };
      const output = cli.output(command);
      output.note("store the key now: only its hash is kept, it cannot be shown again");
      output.result(shown, () => fields(shown));
    });
}
