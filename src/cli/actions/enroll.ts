import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { stringify } from "csv-stringify/sync";
import type { CollectionMethod } from "../../billing/index.js";
import { subscribe } from "../../enrollment/index.js";
import { findSubscription } from "../../resources/index.js";
import { type CsvRow, enrollRow, type RowResult, readEnrollmentCsv } from "../bulk-enroll.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError, EXIT } from "../errors.js";
import { fields, type Output, table } from "../output.js";

const OUT_COLUMNS = [
  "line",
  "email",
  "plan",
  "status",
  "customer_id",
  "subscription_id",
  "checkout_url",
  "error",
] as const satisfies readonly (keyof RowResult)[];

/** `links.csv` beside the input: customers.csv → customers.links.csv. */
function defaultOut(csv: string): string {
  const parsed = path.parse(csv);
  return path.join(parsed.dir, `${parsed.name}.links.csv`);
}

interface EnrollOne {
  customerId: string;
  planId: string;
  allowDuplicate: boolean;
  coupon: string | undefined;
  collectionMethod: CollectionMethod | undefined;
  quantity: number | undefined;
}

/**
 * One subscription, with its status: pending_enrollment and the checkout where the card is saved,
 * or (paying by link) started already, trialing or active, with no checkout.
 */
async function enrollOne(cli: Cli, output: Output, input: EnrollOne): Promise<void> {
  const { result, subscription } = await cli.withEngine(async (ctx) => {
    const result = await subscribe(ctx, { ...input, actor: CLI_ACTOR });
    return { result, subscription: await findSubscription(ctx.db, result.subscriptionId) };
  });
  const shown = {
    subscription_id: result.subscriptionId,
    status: subscription.status,
    collection_method: result.collectionMethod,
    enrollment_id: result.enrollmentId,
    checkout_url: result.checkoutUrl,
  };
  output.result(shown, () => fields(shown));
}

async function enrollCsv(cli: Cli, output: Output, csv: string, out: string): Promise<void> {
  const text = await readFile(csv, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`--csv: cannot read ${csv}: ${error.code ?? error.message}`, EXIT.usage);
  });
  const rows: CsvRow[] = readEnrollmentCsv(text, csv);
  const results = await cli.withEngine(async (ctx) => {
    const progress = output.progress(rows.length, "enrolling");
    const done: RowResult[] = [];
    try {
      for (const row of rows) {
        const result = await enrollRow(ctx, row);
        done.push(result);
        progress.tick(row.email);
      }
    } finally {
      progress.stop();
    }
    return done;
  });
  await writeFile(out, stringify(results, { header: true, columns: [...OUT_COLUMNS] }));

  const count = (status: RowResult["status"]) => results.filter((result) => result.status === status).length;
  const summary = {
    enrolled: count("enrolled"),
    existing: count("existing"),
    rejected: count("rejected"),
    out,
  };
  for (const result of results) {
    if (result.status === "rejected") output.note(`line ${result.line}: ${result.error}`);
  }
  output.result({ ...summary, rows: results }, () =>
    [
      table(results, [
        "line",
        "email",
        "status",
        "subscription_id",
        "collection_method",
        "checkout_url",
        "error",
      ]),
      "",
      `${summary.enrolled} enrolled, ${summary.existing} already enrolled, ${summary.rejected} rejected; links written to ${out}`,
    ].join("\n"),
  );
  if (summary.rejected > 0) cli.exitCode = EXIT.partial;
}

/**
 * `billing enroll`: one customer to one plan, or every row of a CSV file (bulk-enroll.ts), through
 * the enrolment service; each prints the checkout link where the card is saved (none for a
 * subscription paying by link).
 */
export async function run(
  cli: Cli,
  options: {
    customer?: string;
    plan?: string;
    csv?: string;
    out?: string;
    allowDuplicate?: boolean;
    coupon?: string;
    collectionMethod?: CollectionMethod;
    quantity?: number;
  },
  command: Command,
): Promise<void> {
  const output = cli.output(command);
  if (options.csv) {
    if (options.customer || options.plan) {
      throw new CliError("--csv: give either --csv or --customer and --plan, not both", EXIT.usage);
    }
    if (options.allowDuplicate) {
      // A re-run of a file must not enrol its rows twice: a row already enrolled is `existing`.
      throw new CliError("--allow-duplicate: only with --customer and --plan", EXIT.usage);
    }
    if (options.coupon) throw new CliError("--coupon: only with --customer and --plan", EXIT.usage);
    if (options.quantity !== undefined) {
      throw new CliError(
        "--quantity: only with --customer and --plan (the file's quantity column says it per row)",
        EXIT.usage,
      );
    }
    if (options.collectionMethod) {
      throw new CliError(
        "--collection-method: only with --customer and --plan (the file's collection_method column says it per row)",
        EXIT.usage,
      );
    }
    return enrollCsv(cli, output, options.csv, options.out ?? defaultOut(options.csv));
  }
  if (!options.customer || !options.plan) {
    throw new CliError(
      `${options.customer ? "--plan" : "--customer"}: required (or give --csv FILE)`,
      EXIT.usage,
    );
  }
  if (options.out) throw new CliError("--out: only with --csv", EXIT.usage);
  return enrollOne(cli, output, {
    customerId: options.customer,
    planId: options.plan,
    allowDuplicate: Boolean(options.allowDuplicate),
    coupon: options.coupon,
    collectionMethod: options.collectionMethod,
    quantity: options.quantity,
  });
}
