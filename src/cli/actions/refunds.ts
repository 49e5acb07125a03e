import type { Command } from "commander";
import type { RefundRow } from "../../refunds/index.js";
// The module itself, not the refunds index: a read loads what it reads.
import { findRefund, listRefunds } from "../../refunds/refund-reads.js";
import type { Cli } from "../cli.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentRefund } from "../present.js";

/** `billing refunds list|show`: reads, needing the database alone (a refund is made by `charges refund`). */

export async function list(
  cli: Cli,
  options: { charge?: string; status?: RefundRow["status"]; reason?: RefundRow["reason"] },
  command: Command,
): Promise<void> {
  const rows = await cli.withDatabase(({ db }) =>
    allPages(async (after) => {
      const page = await listRefunds(db, {
        limit: 100,
        starting_after: after,
        charge_id: options.charge,
        status: options.status,
        reason: options.reason,
      });
      return { rows: page.data, next: page.has_more ? (page.data.at(-1)?.id ?? null) : null };
    }),
  );
  const shown = rows.map(presentRefund);
  cli
    .output(command)
    .result({ data: shown }, () =>
      table(shown, ["id", "charge_id", "reason", "status", "amount", "currency", "created_at", "settled_at"]),
    );
}

export async function show(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const shown = presentRefund(await cli.withDatabase(({ db }) => findRefund(db, id)));
  cli.output(command).result(shown, () => fields(shown));
}
