import { describe, expect, it } from "vitest";
import { judgeTimestamp, type SubscriptionWindow } from "../../../src/usage/window.js";

const ms = (iso: string) => Date.parse(iso);

/** February is current, January was the previous period; 24 hours of grace. */
const february: SubscriptionWindow = {
  status: "active",
  currentStart: ms("2026-02-01T00:00:00Z"),
  currentEnd: ms("2026-03-01T00:00:00Z"),
  previousStart: ms("2026-01-01T00:00:00Z"),
};

const judge = (at: string, now: string, window = february, grace = 24) =>
  judgeTimestamp(window, ms(at), ms(now), grace);

describe("the acceptance window of a usage event", () => {
  it("takes the current period, start included", () => {
    expect(judge("2026-02-01T00:00:00Z", "2026-02-10T00:00:00Z")).toEqual({ ok: true, period: "current" });
    expect(judge("2026-02-28T23:59:59.999Z", "2026-02-28T23:59:59.999Z")).toEqual({
      ok: true,
      period: "current",
    });
  });

  it("takes the previous period until its end plus the grace, not from then", () => {
    expect(judge("2026-01-01T00:00:00Z", "2026-02-01T23:59:59.999Z")).toEqual({
      ok: true,
      period: "previous",
    });
    expect(judge("2026-01-31T23:59:59Z", "2026-02-02T00:00:00Z")).toEqual({
      ok: false,
      code: "period_closed",
      reason:
        "the period 2026-01-01T00:00:00.000Z – 2026-02-01T00:00:00.000Z is closed: late usage for it was taken until 2026-02-02T00:00:00.000Z (USAGE_GRACE_HOURS=24)",
    });
    expect(judge("2026-01-31T23:59:59Z", "2026-02-01T00:30:00Z", february, 0)).toMatchObject({
      ok: false,
      code: "period_closed",
    });
  });

  it("refuses what is older than the previous period, or before the first period", () => {
    expect(judge("2025-12-31T23:59:59Z", "2026-02-01T01:00:00Z")).toEqual({
      ok: false,
      code: "period_closed",
      reason:
        "timestamp 2025-12-31T23:59:59.000Z is before the previous period (which started 2026-01-01T00:00:00.000Z); its period is closed to usage",
    });
    expect(
      judge("2026-01-31T23:00:00Z", "2026-02-01T01:00:00Z", { ...february, previousStart: null }),
    ).toEqual({
      ok: false,
      code: "period_closed",
      reason:
        "timestamp 2026-01-31T23:00:00.000Z is before the current period (which started 2026-02-01T00:00:00.000Z) and no earlier period of the subscription takes usage",
    });
  });

  it("allows 5 minutes of clock skew ahead of now, and no more", () => {
    expect(judge("2026-02-10T12:05:00Z", "2026-02-10T12:00:00Z")).toEqual({ ok: true, period: "current" });
    expect(judge("2026-02-10T12:05:00.001Z", "2026-02-10T12:00:00Z")).toEqual({
      ok: false,
      code: "timestamp_in_future",
      reason:
        "timestamp 2026-02-10T12:05:00.001Z is more than 5 minutes after the billing clock's now (2026-02-10T12:00:00.000Z)",
    });
  });

  it("refuses the next period before the renewal opened it", () => {
    expect(judge("2026-03-01T00:01:00Z", "2026-03-01T00:02:00Z")).toEqual({
      ok: false,
      code: "period_not_open",
      reason:
        "timestamp 2026-03-01T00:01:00.000Z is at or after the end of the current period (2026-03-01T00:00:00.000Z); the next period is not open yet",
    });
  });

  it("takes usage only from live subscriptions with a period", () => {
    for (const status of ["trialing", "active", "past_due"]) {
      expect(judge("2026-02-10T00:00:00Z", "2026-02-10T00:00:00Z", { ...february, status }).ok).toBe(true);
    }
    for (const status of ["canceled", "unpaid", "paused", "pending_enrollment"]) {
      expect(judge("2026-02-10T00:00:00Z", "2026-02-10T00:00:00Z", { ...february, status })).toMatchObject({
        ok: false,
        code: "subscription_not_live",
      });
    }
    const none = { status: "trialing", currentStart: null, currentEnd: null, previousStart: null };
    expect(judge("2026-02-10T00:00:00Z", "2026-02-10T00:00:00Z", none)).toMatchObject({
      ok: false,
      code: "no_open_period",
    });
  });
});
