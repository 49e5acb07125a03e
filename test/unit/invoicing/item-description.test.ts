import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { itemDescription } from "../../../src/invoicing/invoice-request.js";

/** What an invoice's item says, by the kind of charge, on the customer's calendar (Qatar). */
const PERIOD = {
  plan: { name: "Team", productId: null },
  periodStart: DateTime.fromISO("2026-01-14T21:00:00Z"),
  periodEnd: DateTime.fromISO("2026-02-14T21:00:00Z"),
  timezone: "Asia/Qatar",
};

describe("itemDescription", () => {
  it.each([
    ["period", "Team, 2026-01-15 – 2026-02-15"],
    ["plan_change", "Change to Team, 2026-01-15 – 2026-02-15"],
    ["usage", "Usage of Team, 2026-01-15 – 2026-02-15"],
    ["one_off", "One-off charge, Team, 2026-01-15 – 2026-02-15"],
  ] as const)("a %s charge: %s", (kind, text) => {
    expect(itemDescription({ ...PERIOD, kind })).toBe(text);
  });
});
