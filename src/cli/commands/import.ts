import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { IMPORT_COLUMNS, ImportFileError, importSubscriptions, readImportCsv } from "../../imports/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError, EXIT } from "../errors.js";
import { table } from "../output.js";

export function registerImport(program: Command, cli: Cli): void {
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
    .action(async (options: { csv: string; dryRun?: boolean }, command: Command) => {
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
    });
}
