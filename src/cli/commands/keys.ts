import type { Command } from "commander";
import { createApiKey, listApiKeys, revokeApiKey } from "../../apikeys/index.js";
import type { Cli } from "../cli.js";
import { CliError, optionError } from "../errors.js";
import { uuid } from "../options.js";
import { fields, table } from "../output.js";

export function registerKeys(program: Command, cli: Cli): void {
  const keys = program.command("keys").description("API keys of the merchant API");

  keys
    .command("create")
    .description("create an API key; the key is printed this once and cannot be shown again")
    .requiredOption("--name <name>", "what the key is for, e.g. the client's name")
    .option("--read-only", "a key that may only read (GET), for dashboards and reports")
    .option(
      "--allow <operation>",
      'a key that may read and do only this write, e.g. "POST /v1/charges/:id/refund" (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(async (options: { name: string; readOnly?: boolean; allow?: string[] }, command: Command) => {
      if (options.readOnly && options.allow) {
        throw optionError("--allow", "a key is either --read-only or --allow some writes, not both");
      }
      const key = await cli.withDatabase(({ db }) =>
        createApiKey(db, { name: options.name, readOnly: options.readOnly, operations: options.allow }),
      );
      const shown = {
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        scope: key.scope,
        allowed_operations: key.allowedOperations,
        key: key.key,
      };
      const output = cli.output(command);
      output.note("store the key now: only its hash is kept, it cannot be shown again");
      output.result(shown, () => fields(shown));
    });

  keys
    .command("list")
    .description("list API keys, oldest first, revoked ones included (only their prefix is shown)")
    .action(async (_options, command: Command) => {
      const rows = await cli.withDatabase(({ db }) => listApiKeys(db));
      const shown = rows.map((key) => ({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        scope: key.scope,
        allowed_operations: key.allowedOperations,
        created_at: key.createdAt.toISOString(),
        last_used_at: key.lastUsedAt?.toISOString() ?? null,
        revoked_at: key.revokedAt?.toISOString() ?? null,
      }));
      cli
        .output(command)
        .result({ data: shown }, () =>
          table(shown, ["id", "name", "prefix", "scope", "last_used_at", "revoked_at"]),
        );
    });

  keys
    .command("revoke")
    .description("stop a key from authenticating, at once (its dashboard sessions end too)")
    .argument("<id>", "key id (from keys list)", uuid)
    .action(async (id: string, _options, command: Command) => {
      const revoked = await cli.withDatabase(({ db }) => revokeApiKey(db, id));
      if (!revoked) throw new CliError(`no live API key ${id}: it does not exist or is already revoked`);
      const shown = { id, revoked: true };
      cli.output(command).result(shown, () => `revoked API key ${id}`);
    });
}
