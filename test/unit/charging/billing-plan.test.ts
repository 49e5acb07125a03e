import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { inBatches } from "../../../src/scheduler/batches.js";
import { type DueSubscription, planBilling } from "../../../src/scheduler/index.js";

const at = (iso: string) => DateTime.fromISO(iso, { zone: "utc" });
const iso = (d: DateTime) => d.toUTC().toISO();

const monthly = (overrides: Partial<DueSubscription> = {}): DueSubscription => ({
  billingAnchor: at("2026-01-31T09:00:00Z"),
  timezone: "Asia/Qatar",
  interval: { unit: "month", count: 1 },
  nextBillingAt: at("2026-01-31T09:00:00Z"),
  cancelAtPeriodEnd: false,
  ...overrides,
});

describe("what the scheduler does with a due subscription", () => {
  it("bills the period starting at next_billing_at and moves to its end", () => {
    const step = planBilling(monthly(), at("2026-01-31T09:00:00Z"), 12);
    expect(step.kind).toBe("bill");
    if (step.kind !== "bill") return;
    expect(step.periods.map((p) => [p.index, iso(p.start), iso(p.end)])).toEqual([
      [0, "2026-01-31T09:00:00.000Z", "2026-02-28T09:00:00.000Z"],
    ]);
    expect(iso(step.nextBillingAt)).toBe("2026-02-28T09:00:00.000Z");
  });

  it("keeps the anchor day: after February's 28th comes March's 31st", () => {
    const step = planBilling(
      monthly({ nextBillingAt: at("2026-02-28T09:00:00Z") }),
      at("2026-02-28T09:00:00Z"),
      12,
    );
    if (step.kind !== "bill") throw new Error("expected bill");
    expect(iso(step.periods[0]!.start)).toBe("2026-02-28T09:00:00.000Z");
    expect(iso(step.nextBillingAt)).toBe("2026-03-31T09:00:00.000Z");
  });

  it("bills every period that began while behind, up to the bound", () => {
    const now = at("2026-05-01T00:00:00Z");
    const step = planBilling(monthly(), now, 12);
    if (step.kind !== "bill") throw new Error("expected bill");
    expect(step.periods.map((p) => p.index)).toEqual([0, 1, 2, 3]);
    expect(iso(step.nextBillingAt)).toBe("2026-05-31T09:00:00.000Z");

    const bounded = planBilling(monthly(), now, 2);
    if (bounded.kind !== "bill") throw new Error("expected bill");
    expect(bounded.periods.map((p) => p.index)).toEqual([0, 1]);
    // Still due: the next tick goes on from here.
    expect(iso(bounded.nextBillingAt)).toBe("2026-03-31T09:00:00.000Z");
  });

  it("cancels at the period end instead of renewing when asked to", () => {
    const end = at("2026-02-28T09:00:00Z");
    expect(
      planBilling(monthly({ nextBillingAt: end, cancelAtPeriodEnd: true }), end.plus({ hours: 1 }), 12),
    ).toEqual({
      kind: "cancel",
      at: end,
    });
  });

  it("refuses a subscription that is not due, and a nonsense bound", () => {
    expect(() => planBilling(monthly(), at("2026-01-31T08:59:59Z"), 12)).toThrow(RangeError);
    expect(() => planBilling(monthly(), at("2026-02-01T00:00:00Z"), 0)).toThrow(RangeError);
  });
});

describe("inBatches", () => {
  it("pages with the cursor until a short batch", async () => {
    const rows = [1, 2, 3, 4, 5, 6, 7];
    const seen: (number | undefined)[] = [];
    await inBatches<number>(3, async (after) => {
      seen.push(after);
      const batch = rows.filter((n) => after === undefined || n > after).slice(0, 3);
      return { rows: batch.length, cursor: batch.at(-1) };
    });
    expect(seen).toEqual([undefined, 3, 6]);
  });

  it("refuses a batch size below one", async () => {
    await expect(inBatches(0, async () => ({ rows: 0, cursor: undefined }))).rejects.toThrow(RangeError);
  });
});
