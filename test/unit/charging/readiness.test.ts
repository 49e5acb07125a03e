import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { CHARGE_STATES, type ChargeState } from "../../../src/billing/index.js";
import { readiness } from "../../../src/charging/index.js";

const NOW = DateTime.fromISO("2026-01-15T09:00:00Z", { zone: "utc" });
const charge = (status: ChargeState, nextAttemptAt: DateTime | null = null, resumable = false) => ({
  status,
  nextAttemptAt,
  resumable,
});

describe("may a new attempt be sent now?", () => {
  it("when a waiting charge is due, not before", () => {
    for (const status of ["scheduled", "retrying"] as const) {
      expect(readiness(charge(status, NOW), NOW, false)).toBe("ready");
      expect(readiness(charge(status, NOW.minus({ days: 1 })), NOW, false)).toBe("ready");
      expect(readiness(charge(status, NOW.plus({ seconds: 1 })), NOW, false)).toBe("not_due");
      expect(readiness(charge(status, null), NOW, false)).toBe("not_due");
      expect(readiness(charge(status, NOW.plus({ days: 3 })), NOW, true)).toBe("ready");
    }
  });

  it("at once when collection resumes on a new card, for a retrying or uncollectible charge", () => {
    expect(readiness(charge("retrying", NOW.plus({ days: 2 }), true), NOW, false)).toBe("ready");
    expect(readiness(charge("uncollectible", null, true), NOW, false)).toBe("ready");
    expect(readiness(charge("scheduled", NOW.plus({ days: 2 }), true), NOW, false)).toBe("not_due");
  });

  it("uncollectible only when forced or resumed", () => {
    expect(readiness(charge("uncollectible"), NOW, false)).toBe("settled");
    expect(readiness(charge("uncollectible"), NOW, true)).toBe("ready");
  });

  it("never for a charge in flight, under review or final, even forced", () => {
    const expected: Partial<Record<ChargeState, string>> = {
      processing: "in_progress",
      needs_review: "needs_review",
      paid: "settled",
      canceled: "settled",
    };
    for (const status of CHARGE_STATES) {
      const want = expected[status];
      if (!want) continue;
      for (const force of [false, true]) {
        expect(readiness(charge(status, NOW, true), NOW, force)).toBe(want);
      }
    }
  });
});
