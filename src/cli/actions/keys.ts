import type { Command } from "commander";
import { createApiKey, listApiKeys, revokeApiKey } from "../../apikeys/index.js";
import type { Cli } from "../cli.js";
import { CliError, optionError } from "../errors.js";
import { fields, table } from "../output.js";

/** `billing keys …`: API keys of the merchant API, stored hashed (the key is shown once). */

export async function create(
  cli: Cli,
  options: { name: string; readOnly?: boolean; allow?: string[] },
  command: Command,
): Promise<void> {
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
}

export async function list(cli: Cli, _options: unknown, command: Command): Promise<void> {
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
}

export async function revoke(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const revoked = await cli.withDatabase(({ db }) => revokeApiKey(db, id));
  if (!revoked) throw new CliError(`no live API key ${id}: it does not exist or is already revoked`);
  const shown = { id, revoked: true };
  cli.output(command).result(shown, () => `revoked API key ${id}`);
}
