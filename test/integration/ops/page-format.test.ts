import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { money } from "../../../src/http/html.js";
import { snakeJson } from "../../../src/http/ops/snake-json.js";
import { day, when } from "../../../src/http/ops/zoned-time.js";

/**
 * How the ops pages write what they show: money exact and grouped, JSON keys in snake_case, times
 * in the billing time zone. Pure: no database.
 */
describe("the ops pages' formats", () => {
  it("writes money from the minor units, exactly, with the thousands grouped", () => {
    expect(money(2_131_500, "QAR")).toBe("21,315.00 QAR");
    expect(money(99_900, "QAR")).toBe("999.00 QAR");
    expect(money(5, "QAR")).toBe("0.05 QAR");
    expect(money(-123_456_789, "QAR")).toBe("-1,234,567.89 QAR");
    expect(money(1_234_567, "KWD")).toBe("1,234.567 KWD");
    expect(money(1_234_567, "JPY")).toBe("1,234,567 JPY");
    // Past what a double holds to the cent, still exact.
    expect(money(9_007_199_254_740_991, "QAR")).toBe("90,071,992,547,409.91 QAR");
  });

  it("renames every key to snake_case, at every level, and leaves values alone", () => {
    const at = DateTime.fromISO("2026-11-27T10:00:00Z", { zone: "utc" });
    const json = snakeJson({
      usageRevenue: { paid: [{ currency: "QAR", amountMinor: 1 }] },
      counts: { past_due: 2 },
      breaker: { openedAt: at, reason: "camelCase stays in values" },
      cardLast4: "4242",
    });
    expect(JSON.parse(json)).toEqual({
      usage_revenue: { paid: [{ currency: "QAR", amount_minor: 1 }] },
      counts: { past_due: 2 },
      breaker: { opened_at: "2026-11-27T10:00:00.000Z", reason: "camelCase stays in values" },
      card_last4: "4242",
    });
  });

  it("shows an instant in the billing time zone", () => {
    expect(when("2026-11-27T22:30:00.000Z", "Asia/Qatar")).toBe("2026-11-28 01:30");
    expect(day("2026-11-27T22:30:00.000Z", "Asia/Qatar")).toBe("2026-11-28");
    expect(when(DateTime.fromISO("2026-11-27T22:30:00Z"), "Asia/Qatar")).toBe("2026-11-28 01:30");
    expect(when(null, "Asia/Qatar")).toBe("–");
  });
});
