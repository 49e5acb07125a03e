import { type EngineContext, refreshClock } from "../context/index.js";
import { type RetryNowResult, retryChargeNow } from "./retry-now.js";
import { type DunningSelection, type SelectedCharge, selectDunningCharges } from "./select-charges.js";
import { countCollections, countDryRun, type DunningCounts } from "./summary.js";

/**
 * The operators' dunning run (CLI / API): collects now the retrying charges whose retry is due, or
 * every retrying charge with `all`, optionally of one subscription or customer. `dryRun` only lists
 * them; nothing is sent to the gateway. Otherwise each selected charge is collected now through
 * processCharge (retryChargeNow: reconcile first, claim, charge, record), at most `concurrency` at a
 * time, and the outcomes are summarised (summary.ts: a charge the workers took meanwhile is counted
 * as skipped, not attempted). The gateway rate limit of the charge queue does not apply here;
 * `concurrency` bounds the load.
 */
export interface DunningRunOptions extends DunningSelection {
  readonly dryRun?: boolean;
  /** Charges collected at once; default CHARGE_CONCURRENCY. */
  readonly concurrency?: number;
  readonly onProgress?: (progress: DunningProgress) => void;
}

export interface DunningProgress {
  readonly done: number;
  readonly total: number;
  readonly chargeId: string;
  readonly outcome: DunningOutcome;
}

/** A ChargeResult kind, `pending` (outcome unknown or not reached: BullMQ carries on), or `error`. */
export type DunningOutcome = RetryNowResult["kind"] | "error";

export interface CollectedCharge extends SelectedCharge {
  readonly outcome: DunningOutcome;
  readonly result?: RetryNowResult;
  readonly error?: string;
}

/** A selected charge, with its outcome unless the run was dry. */
export type DunningChargeReport = SelectedCharge | CollectedCharge;

/** The counts add up: see summary.ts. */
export interface DunningSummary extends DunningCounts {
  readonly dryRun: boolean;
  readonly charges: readonly DunningChargeReport[];
}

/**
 * The charge as the run left it: a collection that made an attempt says its number, and a decline
 * when the next retry is due, so a report never shows the counts from before the run.
 */
function afterRun(charge: SelectedCharge, result: RetryNowResult): SelectedCharge {
  switch (result.kind) {
    case "paid":
      return { ...charge, attemptCount: result.attemptNumber, nextAttemptAt: null };
    case "declined":
      return { ...charge, attemptCount: result.attemptNumber, nextAttemptAt: result.nextAttemptAt };
    default:
      return charge;
  }
}

async function collect(ctx: EngineContext, charge: SelectedCharge): Promise<CollectedCharge> {
  try {
    const result = await retryChargeNow(ctx, charge.chargeId);
    return { ...afterRun(charge, result), outcome: result.kind, result };
  } catch (err) {
    ctx.logger.error({ err, chargeId: charge.chargeId }, "dunning run could not collect this charge");
    return { ...charge, outcome: "error", error: err instanceof Error ? err.message : String(err) };
  }
}

export async function runDunning(
  ctx: EngineContext,
  options: DunningRunOptions = {},
): Promise<DunningSummary> {
  const now = await refreshClock(ctx.clock);
  const selected = await selectDunningCharges(ctx.db, options, now);
  if (options.dryRun) {
    return { dryRun: true, ...countDryRun(selected.length), charges: selected };
  }
  const concurrency = options.concurrency ?? ctx.config.CHARGE_CONCURRENCY;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a whole number from 1, got ${concurrency}`);
  }

  const reports: CollectedCharge[] = new Array(selected.length);
  let next = 0;
  let done = 0;
  const lane = async () => {
    for (let index = next++; index < selected.length; index = next++) {
      const report = await collect(ctx, selected[index]!);
      reports[index] = report;
      done += 1;
      options.onProgress?.({
        done,
        total: selected.length,
        chargeId: report.chargeId,
        outcome: report.outcome,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, selected.length) }, lane));

  return { dryRun: false, ...countCollections(reports.map((report) => report.result)), charges: reports };
}
