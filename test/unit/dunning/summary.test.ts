import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SkipReason } from "../../../src/charging/index.js";
import {
  countCollections,
  countDryRun,
  type DunningCounts,
  placeCollection,
  type RetryNowResult,
} from "../../../src/dunning/index.js";

const ID = "00000000-0000-4000-8000-000000000001";

const paid: RetryNowResult = { kind: "paid", chargeId: ID, attemptNumber: 2, transactionId: "T-1" };
const declined: RetryNowResult = {
  kind: "declined",
  chargeId: ID,
  attemptNumber: 2,
  chargeStatus: "retrying",
  nextAttemptAt: "2026-01-18T09:00:00.000Z",
  description: "Insufficient funds",
};
const tokenUnusable: RetryNowResult = {
  kind: "token_unusable",
  chargeId: ID,
  chargeStatus: "uncollectible",
  checkoutUrl: null,
};
const review: RetryNowResult = {
  kind: "needs_review",
  chargeId: ID,
  reason: "gateway_rejected",
  description: "Bad Request",
};
const pending = (reason: "outcome_unknown" | "in_flight_elsewhere" | "gateway_not_reached") =>
  ({
    kind: "pending",
    chargeId: ID,
    unknownOutcome: reason === "outcome_unknown",
    reason,
    why: "…",
  }) as const;
const skipped = (reason: SkipReason): RetryNowResult => ({ kind: "skipped", chargeId: ID, reason });

describe("where a charge of a dunning run is counted", () => {
  it.each([
    ["paid", paid, { bucket: "approved" }],
    ["declined", declined, { bucket: "declined" }],
    ["card unusable", tokenUnusable, { bucket: "declined" }],
    ["held for review", review, { bucket: "needs_review" }],
    ["outcome unknown", pending("outcome_unknown"), { bucket: "unknown" }],
    ["gateway not reached", pending("gateway_not_reached"), { bucket: "deferred" }],
    ["card refused once", skipped("card_refused_once"), { bucket: "deferred" }],
    ["failed with an error", undefined, { bucket: "failed" }],
    [
      "in flight in another worker",
      pending("in_flight_elsewhere"),
      { bucket: "skipped", skipReason: "in_flight_elsewhere" },
    ],
    [
      "claimed by a worker meanwhile",
      skipped("claimed_elsewhere"),
      { bucket: "skipped", skipReason: "claimed_elsewhere" },
    ],
    ["settled meanwhile", skipped("settled"), { bucket: "skipped", skipReason: "settled" }],
    ["no longer due", skipped("not_due"), { bucket: "skipped", skipReason: "not_due" }],
    [
      "recorded by another worker",
      skipped("already_recorded"),
      { bucket: "skipped", skipReason: "already_recorded" },
    ],
    [
      "held by the breaker",
      skipped("collection_paused"),
      { bucket: "skipped", skipReason: "collection_paused" },
    ],
    ["paid by link instead", skipped("link_sent"), { bucket: "skipped", skipReason: "link_sent" }],
  ] as const)("%s", (_label, result, placement) => {
    expect(placeCollection(result)).toEqual(placement);
  });
});

const sumOf = (counts: DunningCounts) =>
  counts.approved + counts.declined + counts.unknown + counts.needsReview + counts.deferred + counts.failed;

describe("a dunning run's counts", () => {
  it("count a run racing the workers as skipped, not attempted", () => {
    // 102 selected; the charge workers took 93 of them between the selection and the run's claim.
    const results = [
      ...Array.from({ length: 3 }, () => paid),
      ...Array.from({ length: 6 }, () => pending("outcome_unknown")),
      ...Array.from({ length: 90 }, () => skipped("claimed_elsewhere")),
      ...Array.from({ length: 2 }, () => skipped("settled")),
      pending("in_flight_elsewhere"),
    ];
    expect(countCollections(results)).toEqual({
      selected: 102,
      attempted: 9,
      approved: 3,
      declined: 0,
      unknown: 6,
      needsReview: 0,
      deferred: 0,
      failed: 0,
      skipped: 93,
      skipReasons: { claimed_elsewhere: 90, settled: 2, in_flight_elsewhere: 1 },
    });
  });

  it("add up for any mix of outcomes", () => {
    const outcome = fc.constantFrom<RetryNowResult | undefined>(
      paid,
      declined,
      tokenUnusable,
      review,
      pending("outcome_unknown"),
      pending("in_flight_elsewhere"),
      pending("gateway_not_reached"),
      skipped("claimed_elsewhere"),
      skipped("card_refused_once"),
      skipped("not_due"),
      undefined,
    );
    fc.assert(
      fc.property(fc.array(outcome, { maxLength: 50 }), (results) => {
        const counts = countCollections(results);
        expect(counts.selected).toBe(results.length);
        expect(counts.attempted + counts.skipped).toBe(counts.selected);
        expect(sumOf(counts)).toBe(counts.attempted);
        expect(Object.values(counts.skipReasons).reduce((a, b) => a + b, 0)).toBe(counts.skipped);
      }),
    );
  });

  it("of a dry run attempt nothing: every selected charge is skipped as dry_run", () => {
    expect(countDryRun(4)).toEqual({
      selected: 4,
      attempted: 0,
      approved: 0,
      declined: 0,
      unknown: 0,
      needsReview: 0,
      deferred: 0,
      failed: 0,
      skipped: 4,
      skipReasons: { dry_run: 4 },
    });
    expect(countDryRun(0)).toMatchObject({ selected: 0, skipped: 0, skipReasons: {} });
  });
});
