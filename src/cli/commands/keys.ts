import type { Command } from "commander";
import type { Actions } from "../actions.js";
import { uuid } from "../options.js";

export function registerKeys(program: Command, action: Actions): void {
  const keys = program.command("keys").description("API keys of the merchant API");
  const load = () => import("../actions/keys.js");

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
    .action(action(load, "create"));

  keys
    .command("list")
    .description("list API keys, oldest first, revoked ones included (only their prefix is shown)")
    .action(action(load, "list"));

  keys
    .command("revoke")
    .description("stop a key from authenticating, at once (its dashboard sessions end too)")
    .argument("<id>", "key id (from keys list)", uuid)
    .action(action(load, "revoke"));
}
