import type { Command } from "commander";
import { findCharge, listCharges } from "../../api/services/charges.js";
import type { ChargeState } from "../../billing/index.js";
import type { Cli } from "../cli.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentCharge } from "../present.js";

/** `billing charges list|show`: reads, needing the database alone (collection is apart: the engine). */

export async function list(
  cli: Cli,
  options: { subscription?: string; status?: ChargeState },
  command: Command,
): Promise<void> {
  const rows = await cli.withDatabase(({ db }) =>
    allPages(async (after) => {
      const page = await listCharges(db, {
        limit: 100,
        starting_after: after,
        subscription_id: options.subscription,
        status: options.status,
      });
      return { rows: page.data, next: page.has_more ? (page.data.at(-1)?.id ?? null) : null };
    }),
  );
  const shown = rows.map(presentCharge);
  cli
    .output(command)
    .result({ data: shown }, () =>
      table(shown, [
        "id",
        "subscription_id",
        "status",
        "amount",
        "currency",
        "attempt_count",
        "period_start",
      ]),
    );
}

export async function show(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const shown = presentCharge(await cli.withDatabase(({ db }) => findCharge(db, id)));
  const { attempts, ...charge } = shown;
  cli
    .output(command)
    .result(shown, () =>
      [
        fields(charge),
        "",
        "attempts:",
        table(attempts, ["attempt", "order_id", "status", "transaction_id", "decline_code", "duplicate"]),
      ].join("\n"),
    );
}
