import { z } from "zod";
import type { ReconcileHeldResult } from "../../charging/index.js";
import type { DunningChargeReport, DunningSummary, RetryNowResult } from "../../dunning/index.js";
import { presentDunningCounts } from "../../resources/dunning-counts.js";
import { chargeSchema } from "./charges.js";
import { moneySchema, presentMoney, timestamp } from "./common.js";

/** The dunning run and "retry now": what was collected and how it went. */

const OUTCOMES = [
  "paid",
  "declined",
  "token_unusable",
  "needs_review",
  "skipped",
  "pending",
  "error",
] as const;

export const chargeOutcome = z
  .enum(OUTCOMES)
  .describe(
    "pending: the gateway's answer is not known yet (or it was not reached); the engine keeps reconciling the charge",
  );

/** Nothing (collect the retries that are due), or which charges to collect and whether for real. */
export const dunningRunBody = z
  .strictObject({
    dry_run: z
      .boolean({ error: "dry_run must be true or false" })
      .optional()
      .describe("Only list the charges"),
    all: z
      .boolean({ error: "all must be true or false" })
      .optional()
      .describe("Every retrying charge, not only those whose retry is due"),
    subscription_id: z.uuid({ error: "subscription_id must be a subscription id (uuid)" }).optional(),
    customer_id: z.uuid({ error: "customer_id must be a customer id (uuid)" }).optional(),
  })
  .nullish();

const dunningChargeSchema = z.object({
  charge_id: z.uuid(),
  subscription_id: z.uuid(),
  customer_id: z.uuid(),
  amount: moneySchema,
  attempt_count: z.number().int().describe("Attempts before this run"),
  next_attempt_at: timestamp.nullable(),
  outcome: chargeOutcome.nullable().describe("null on a dry run"),
  detail: z.string().nullable(),
});

const count = z.number().int().min(0);

/** The counts add up (dunning/summary.ts): selected = attempted + skipped. */
export const dunningSummarySchema = z
  .object({
    dry_run: z.boolean(),
    selected: count.describe("Charges the run selected: attempted + skipped"),
    attempted: count.describe(
      "Charges the run collected itself: approved + declined + unknown + needs_review + deferred + failed",
    ),
    approved: count,
    declined: count.describe("Declined, or ended because the card cannot be used"),
    unknown: count.describe("Still being reconciled with the gateway"),
    needs_review: count.describe(
      "Held for an operator: the gateway rejected the request, or reconciliation gave up",
    ),
    deferred: count.describe(
      "The gateway took nothing (not reached, or a card refusal to confirm); the charge is due again later",
    ),
    failed: count.describe("The collection failed with an error; see the charge's detail"),
    skipped: count.describe(
      "Selected but not attempted: a charge worker claimed, settled or is still sending it, it is no longer due, collection is paused, … (every charge of a dry run)",
    ),
    skip_reasons: z
      .record(z.string(), count)
      .describe(
        "Skipped charges by reason, e.g. claimed_elsewhere, in_flight_elsewhere, settled, not_due, needs_review, collection_paused, dry_run; only reasons that occurred",
      ),
    charges: z.array(dunningChargeSchema),
  })
  .meta({ id: "DunningSummary" });

/** A sentence about a collection's result, or null when the outcome says it all. */
export function resultDetail(result: RetryNowResult): string | null {
  switch (result.kind) {
    case "declined":
    case "needs_review":
      return result.description;
    case "token_unusable":
      return `the card cannot be charged; the customer saves a new one at ${result.checkoutUrl}`;
    case "skipped":
      return result.reason;
    case "pending":
      return result.why;
    case "paid":
      return null;
  }
}

function presentReport(report: DunningChargeReport): z.infer<typeof dunningChargeSchema> {
  const collected = "outcome" in report ? report : undefined;
  return {
    charge_id: report.chargeId,
    subscription_id: report.subscriptionId,
    customer_id: report.customerId,
    amount: presentMoney(report.amountMinor, report.currency),
    attempt_count: report.attemptCount,
    next_attempt_at: report.nextAttemptAt,
    outcome: collected?.outcome ?? null,
    detail: collected?.result ? resultDetail(collected.result) : (collected?.error ?? null),
  };
}

export function presentDunningSummary(summary: DunningSummary): z.infer<typeof dunningSummarySchema> {
  return {
    dry_run: summary.dryRun,
    ...presentDunningCounts(summary),
    charges: summary.charges.map(presentReport),
  };
}

export const chargeRetrySchema = z
  .object({
    outcome: chargeOutcome.exclude(["skipped", "error"]),
    detail: z.string().nullable(),
    checkout_url: z
      .url()
      .nullable()
      .describe("Where the customer saves a new card, when the card cannot be used"),
    charge: chargeSchema.describe("The charge as it is after the attempt"),
  })
  .meta({ id: "ChargeRetry" });

/** An operator's status check of a charge held for review, and how it settled. */
export const chargeReconcileSchema = z
  .object({
    outcome: z
      .enum(["paid", "declined", "released", "still_unknown"])
      .describe(
        "released: the gateway never registered the held attempt; the charge is due again and the next billing tick collects it. still_unknown: nothing changed, the charge stays in needs_review",
      ),
    detail: z.string().nullable(),
    charge: chargeSchema.describe("The charge as it is after the check"),
  })
  .meta({ id: "ChargeReconcile" });

/** A sentence about a reconcile's result, or null when the outcome says it all. */
export function reconcileDetail(result: ReconcileHeldResult): string | null {
  switch (result.outcome) {
    case "declined":
      return result.description;
    case "still_unknown":
      return result.why;
    case "paid":
    case "released":
      return null;
  }
}
