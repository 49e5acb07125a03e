import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { ImportFileError, importSubscriptions, readImportCsv } from "../../imports/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError, EXIT } from "../errors.js";
import { table } from "../output.js";

/** `billing import`: subscriptions with the gateway tokens they already have, from a CSV file. */
export async function run(
  cli: Cli,
  options: { csv: string; dryRun?: boolean },
  command: Command,
): Promise<void> {
  const output = cli.output(command);
  const text = await readFile(options.csv, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`--csv: cannot read ${options.csv}: ${error.code ?? error.message}`, EXIT.usage);
  });
  let rows: ReturnType<typeof readImportCsv>;
  try {
    rows = readImportCsv(text);
  } catch (error) {
    if (error instanceof ImportFileError)
      throw new CliError(`--csv: ${options.csv}: ${error.message}`, EXIT.usage);
    throw error;
  }
  const report = await cli.withEngine((ctx) =>
    importSubscriptions(ctx, rows, { dryRun: options.dryRun ?? false, actor: CLI_ACTOR }),
  );
  for (const row of report.rows) {
    if (row.status === "rejected") output.note(`line ${row.line}: ${row.error}`);
  }
  const verb = options.dryRun ? "would be imported" : "imported";
  output.result({ dry_run: options.dryRun ?? false, ...report }, () =>
    [
      table(
        report.rows.map((row) => ({ ...row, subscription_id: row.subscriptionId })),
        ["line", "email", "status", "subscription_id", "error"],
      ),
      "",
      `${report.imported} ${verb}, ${report.existing} already present, ${report.rejected} rejected`,
    ].join("\n"),
  );
  if (report.rejected > 0) cli.exitCode = EXIT.partial;
}
