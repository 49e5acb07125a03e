import { describe, expect, it } from "vitest";
import { runLine } from "../../../src/cli/actions/dunning.js";
import { countCollections } from "../../../src/dunning/index.js";

const ID = "00000000-0000-4000-8000-000000000001";

describe("the closing line of `billing dunning run`", () => {
  it("splits what was selected into attempted and skipped, with the reasons, so it adds up", () => {
    const counts = countCollections([
      { kind: "paid", chargeId: ID, attemptNumber: 2, transactionId: "T-1" },
      {
        kind: "pending",
        chargeId: ID,
        unknownOutcome: true,
        reason: "outcome_unknown",
        why: "timeout",
      },
      { kind: "skipped", chargeId: ID, reason: "claimed_elsewhere" },
      { kind: "skipped", chargeId: ID, reason: "claimed_elsewhere" },
      {
        kind: "pending",
        chargeId: ID,
        unknownOutcome: false,
        reason: "in_flight_elsewhere",
        why: "in flight",
      },
      undefined,
    ]);
    expect(runLine(counts)).toBe(
      "selected 6: attempted 3 (1 approved, 0 declined, 1 unknown, 1 failed), skipped 3 (2 claimed_elsewhere, 1 in_flight_elsewhere)",
    );
  });

  it("names no reasons when nothing was skipped", () => {
    expect(runLine(countCollections([]))).toBe(
      "selected 0: attempted 0 (0 approved, 0 declined, 0 unknown), skipped 0",
    );
  });
});
