import type { Command } from "commander";
import { type DunningChargeReport, runDunning } from "../../dunning/index.js";
import { toDecimalString } from "../../money/index.js";
import type { Cli } from "../cli.js";
import { type Progress, table } from "../output.js";
import { presentRetry } from "./charge-collection.js";

function presentReport(report: DunningChargeReport) {
  return {
    charge_id: report.chargeId,
    subscription_id: report.subscriptionId,
    customer_id: report.customerId,
    amount: toDecimalString(report.amountMinor, report.currency),
    currency: report.currency,
    attempt_count: report.attemptCount,
    next_attempt_at: report.nextAttemptAt,
    ...("outcome" in report
      ? {
          outcome: report.outcome,
          result: report.result ? presentRetry(report.result) : null,
          error: report.error ?? null,
        }
      : {}),
  };
}

/** `billing dunning run`: collects the retrying charges now, through the engine. */
export async function run(
  cli: Cli,
  options: { dryRun?: boolean; all?: boolean; subscription?: string; customer?: string },
  command: Command,
): Promise<void> {
  const output = cli.output(command);
  // The total is known once the charges are selected, so the bar starts with the first result.
  let progress: Progress | undefined;
  const summary = await cli
    .withEngine((ctx) =>
      runDunning(ctx, {
        dryRun: Boolean(options.dryRun),
        all: Boolean(options.all),
        subscriptionId: options.subscription,
        customerId: options.customer,
        onProgress: ({ total, outcome }) => {
          progress ??= output.progress(total, "collecting");
          progress.tick(outcome);
        },
      }),
    )
    .finally(() => progress?.stop());
  const charges = summary.charges.map(presentReport);
  const shown = {
    dry_run: summary.dryRun,
    attempted: summary.attempted,
    approved: summary.approved,
    declined: summary.declined,
    unknown: summary.unknown,
    charges,
  };
  output.result(shown, () =>
    [
      table(charges, ["charge_id", "subscription_id", "amount", "currency", "attempt_count", "outcome"]),
      "",
      summary.dryRun
        ? `${charges.length} charge(s) would be collected (dry run)`
        : `attempted ${summary.attempted}: ${summary.approved} approved, ${summary.declined} declined, ${summary.unknown} unknown`,
    ].join("\n"),
  );
}
