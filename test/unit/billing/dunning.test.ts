import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_DUNNING_POLICY,
  type DunningPolicy,
  DunningPolicyError,
  dunningPolicySchema,
  findRetryLimitViolation,
  nextRetry,
  parseDunningPolicy,
} from "../../../src/billing/index.js";

const at = (iso: string) => DateTime.fromISO(iso, { zone: "utc" });

function refusal(input: unknown): DunningPolicyError {
  try {
    parseDunningPolicy(input);
  } catch (error) {
    if (error instanceof DunningPolicyError) return error;
    throw error;
  }
  throw new Error("expected the policy to be refused");
}

describe("parseDunningPolicy", () => {
  it("gives the defaults for an empty object or nothing", () => {
    const expected = { retryOffsetsDays: [1, 3, 5, 7], maxAttempts: 5, terminalAction: "unpaid" };
    expect(parseDunningPolicy({})).toEqual(expected);
    expect(parseDunningPolicy()).toEqual(expected);
    expect(DEFAULT_DUNNING_POLICY).toEqual(expected);
  });

  it.each([
    [{ retryOffsetsDays: [2, 4] }, { retryOffsetsDays: [2, 4], maxAttempts: 3, terminalAction: "unpaid" }],
    [{ retryOffsetsDays: [] }, { retryOffsetsDays: [], maxAttempts: 1, terminalAction: "unpaid" }],
    [
      { terminalAction: "cancel" },
      { retryOffsetsDays: [1, 3, 5, 7], maxAttempts: 5, terminalAction: "cancel" },
    ],
    [{ maxAttempts: 2 }, { retryOffsetsDays: [1, 3, 5, 7], maxAttempts: 2, terminalAction: "unpaid" }],
    [{ retryOffsetsDays: [0, 1] }, { retryOffsetsDays: [0, 1], maxAttempts: 3, terminalAction: "unpaid" }],
    [
      // 20 retries on days 1-20: exactly Visa's limit
      { retryOffsetsDays: Array.from({ length: 20 }, (_, i) => i + 1) },
      {
        retryOffsetsDays: Array.from({ length: 20 }, (_, i) => i + 1),
        maxAttempts: 21,
        terminalAction: "unpaid",
      },
    ],
    [
      // 21 retries of which only 20 are used
      { retryOffsetsDays: Array.from({ length: 21 }, (_, i) => i + 1), maxAttempts: 21 },
      {
        retryOffsetsDays: Array.from({ length: 21 }, (_, i) => i + 1),
        maxAttempts: 21,
        terminalAction: "unpaid",
      },
    ],
  ])("accepts %j", (input, expected) => {
    expect(parseDunningPolicy(input)).toEqual(expected);
  });

  it.each([
    [{ retryOffsetsDays: [1, 3, 3] }, "retryOffsetsDays.2", "strictly increasing: day 3 follows day 3"],
    [{ retryOffsetsDays: [5, 3] }, "retryOffsetsDays.1", "strictly increasing: day 3 follows day 5"],
    [{ retryOffsetsDays: [-1, 2] }, "retryOffsetsDays.0", "must not be negative"],
    [{ retryOffsetsDays: [1.5] }, "retryOffsetsDays.0", "whole numbers of days"],
    [{ retryOffsetsDays: [1, 400] }, "retryOffsetsDays.1", "at most 365 days"],
    [{ retryOffsetsDays: "1,3" }, "retryOffsetsDays", "must be an array of days"],
    [{ maxAttempts: 0 }, "maxAttempts", "at least 1"],
    [{ maxAttempts: 6 }, "maxAttempts", "maxAttempts 6 needs 5 retry offsets, but retryOffsetsDays has 4"],
    [{ terminalAction: "suspend" }, "terminalAction", "terminalAction must be one of unpaid, cancel"],
    [{ retryDays: [1] }, "", "unknown field(s): retryDays"],
  ])("refuses %j at %s", (input, field, message) => {
    const error = refusal(input);
    expect(error.issues.find((issue) => issue.field === field)?.message).toContain(message);
  });

  it("refuses 21 retries within 30 days, explaining the Visa rule", () => {
    const error = refusal({ retryOffsetsDays: Array.from({ length: 21 }, (_, i) => i + 1) });
    expect(error.message).toBe(
      "invalid dunning policy: retry schedule refused: Visa allows at most 20 retries per card and amount in 30 days, " +
        "but this schedule makes 21 retries between day 1 and day 21 after the first failure",
    );
  });

  it("checks every sliding window, not only the first 30 days", () => {
    const late = [40, ...Array.from({ length: 21 }, (_, i) => 50 + i)];
    expect(refusal({ retryOffsetsDays: late }).message).toContain(
      "makes 22 retries between day 40 and day 70",
    );
  });

  it("accepts exactly the schedules whose effective attempts respect every network limit", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 120 }), { maxLength: 40 }),
        fc.option(fc.integer({ min: 1, max: 41 }), { nil: undefined }),
        (raw, maxAttempts) => {
          const offsets = [...raw].sort((a, b) => a - b);
          const result = dunningPolicySchema.safeParse({ retryOffsetsDays: offsets, maxAttempts });
          const attempts = maxAttempts ?? offsets.length + 1;
          const valid =
            attempts <= offsets.length + 1 &&
            findRetryLimitViolation([0, ...offsets.slice(0, attempts - 1)].map((d) => d * 86_400_000)) ===
              null;
          expect(result.success).toBe(valid);
        },
      ),
    );
  });
});

describe("nextRetry", () => {
  const policy = DEFAULT_DUNNING_POLICY;
  const firstFailedAt = at("2027-03-10T08:00:00.000Z");

  it.each([
    [1, "2027-03-11T08:00:00.000Z"],
    [2, "2027-03-13T08:00:00.000Z"],
    [3, "2027-03-15T08:00:00.000Z"],
    [4, "2027-03-17T08:00:00.000Z"],
  ])("after %i attempt(s) retries at %s (days after the FIRST failure)", (attemptsMade, expected) => {
    const decision = nextRetry(policy, { firstFailedAt, attemptsMade });
    expect(decision.kind === "retry" && decision.at.toISO()).toBe(expected);
  });

  it("is exhausted after maxAttempts and names the terminal action", () => {
    expect(nextRetry(policy, { firstFailedAt, attemptsMade: 5 })).toEqual({
      kind: "exhausted",
      action: "unpaid",
    });
    const cancel: DunningPolicy = { ...policy, terminalAction: "cancel", maxAttempts: 2 };
    expect(nextRetry(cancel, { firstFailedAt, attemptsMade: 2 })).toEqual({
      kind: "exhausted",
      action: "cancel",
    });
    expect(
      nextRetry({ ...policy, retryOffsetsDays: [], maxAttempts: 1 }, { firstFailedAt, attemptsMade: 1 }),
    ).toEqual({
      kind: "exhausted",
      action: "unpaid",
    });
  });

  it("counts 24-hour days across a DST change (the limits are elapsed time)", () => {
    const london = DateTime.fromISO("2027-03-27T12:00", { zone: "Europe/London" });
    const decision = nextRetry(policy, { firstFailedAt: london, attemptsMade: 1 });
    expect(decision.kind === "retry" && decision.at.toISO()).toBe("2027-03-28T12:00:00.000Z");
  });

  it.each([
    ["on time: the plan stands", 2, "2027-03-11T08:00:00.000Z", "2027-03-13T08:00:00.000Z"],
    ["early (clock skew): the plan stands", 2, "2027-03-11T07:00:00.000Z", "2027-03-13T08:00:00.000Z"],
    ["5 minutes late: so is the next one", 2, "2027-03-11T08:05:00.000Z", "2027-03-13T08:05:00.000Z"],
    ["late: keeps the planned 2-day gap", 2, "2027-03-14T00:00:00.000Z", "2027-03-16T00:00:00.000Z"],
    ["late first retry: keeps the 1-day gap", 1, "2027-03-12T00:00:00.000Z", "2027-03-13T00:00:00.000Z"],
  ])("with the last attempt %s", (_, attemptsMade, lastAttemptAt, expected) => {
    const decision = nextRetry(policy, { firstFailedAt, attemptsMade, lastAttemptAt: at(lastAttemptAt) });
    expect(decision.kind === "retry" && decision.at.toISO()).toBe(expected);
  });

  it.each([0, -1, 1.5])("refuses attemptsMade %d", (attemptsMade) => {
    expect(() => nextRetry(policy, { firstFailedAt, attemptsMade })).toThrow(RangeError);
  });

  it("a schedule followed late never packs attempts closer than the plan (limits still hold)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 15 }),
        fc.array(fc.integer({ min: 0, max: 5 * 86_400_000 }), { minLength: 16, maxLength: 16 }),
        (raw, delays) => {
          const offsets = [...raw].sort((a, b) => a - b);
          const valid = parseDunningPolicy({ retryOffsetsDays: offsets });
          const times: DateTime[] = [firstFailedAt];
          for (let made = 1; ; made += 1) {
            const last = times[times.length - 1]!;
            const decision = nextRetry(valid, { firstFailedAt, attemptsMade: made, lastAttemptAt: last });
            if (decision.kind === "exhausted") break;
            // the worker runs the attempt some time after it is due
            times.push(decision.at.plus({ milliseconds: delays[made - 1]! }));
          }
          expect(times).toHaveLength(valid.maxAttempts);
          const plan = [0, ...offsets].map((d) => d * 86_400_000);
          const actual = times.map((t) => t.toMillis() - firstFailedAt.toMillis());
          for (let i = 1; i < actual.length; i += 1) {
            expect(actual[i]! - actual[i - 1]!).toBeGreaterThanOrEqual(plan[i]! - plan[i - 1]!);
          }
          expect(findRetryLimitViolation(actual)).toBeNull();
        },
      ),
    );
  });
});
