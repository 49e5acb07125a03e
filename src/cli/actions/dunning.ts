import type { Command } from "commander";
import { type DunningChargeReport, type DunningCounts, runDunning } from "../../dunning/index.js";
import { toDecimalString } from "../../money/index.js";
import { presentDunningCounts } from "../../resources/dunning-counts.js";
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

/**
 * The closing line of a run: what was selected, split into what the run attempted and what it
 * skipped (the workers had it, …), so that the numbers shown add up. Rare buckets only when used.
 */
export function runLine(counts: DunningCounts): string {
  const outcomes = [
    `${counts.approved} approved`,
    `${counts.declined} declined`,
    `${counts.unknown} unknown`,
    ...(counts.needsReview > 0 ? [`${counts.needsReview} held for review`] : []),
    ...(counts.deferred > 0 ? [`${counts.deferred} deferred`] : []),
    ...(counts.failed > 0 ? [`${counts.failed} failed`] : []),
  ];
  const reasons = Object.entries(counts.skipReasons).map(([reason, n]) => `${n} ${reason}`);
  const skipped = `skipped ${counts.skipped}${reasons.length > 0 ? ` (${reasons.join(", ")})` : ""}`;
  return `selected ${counts.selected}: attempted ${counts.attempted} (${outcomes.join(", ")}), ${skipped}`;
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
  const shown = { dry_run: summary.dryRun, ...presentDunningCounts(summary), charges };
  output.result(shown, () =>
    [
      table(charges, ["charge_id", "subscription_id", "amount", "currency", "attempt_count", "outcome"]),
      "",
      summary.dryRun ? `${charges.length} charge(s) would be collected (dry run)` : runLine(summary),
    ].join("\n"),
  );
}
