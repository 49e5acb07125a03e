import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_DUNNING_POLICY,
  type DunningPolicy,
  type LinkStep,
  nextLinkStep,
} from "../../../src/billing/index.js";

/**
 * nextLinkStep: reminders of a payment link follow the dunning policy's retry days counted from when
 * the link went out; after the last one the customer has the grace days more, then the policy's
 * terminal action. Every date below is written out, not computed.
 */
const at = (iso: string) => DateTime.fromISO(iso, { zone: "utc" });

/** A step as plain values, so a table row can state it. */
const plain = (step: LinkStep) =>
  step.kind === "remind"
    ? { kind: step.kind, number: step.number, at: step.at.toUTC().toISO() }
    : { kind: step.kind, action: step.action, at: step.at.toUTC().toISO() };

const SENT = at("2026-03-01T09:00:00Z");
const GRACE_DAYS = 2;

describe("nextLinkStep with the default policy (retries on days 1, 3, 5, 7; 5 attempts; unpaid)", () => {
  it("is the default policy the table assumes", () => {
    expect(DEFAULT_DUNNING_POLICY).toEqual({
      retryOffsetsDays: [1, 3, 5, 7],
      maxAttempts: 5,
      terminalAction: "unpaid",
    });
  });

  it.each([
    [0, { kind: "remind", number: 1, at: "2026-03-02T09:00:00.000Z" }],
    [1, { kind: "remind", number: 2, at: "2026-03-04T09:00:00.000Z" }],
    [2, { kind: "remind", number: 3, at: "2026-03-06T09:00:00.000Z" }],
    [3, { kind: "remind", number: 4, at: "2026-03-08T09:00:00.000Z" }],
    [4, { kind: "end", action: "unpaid", at: "2026-03-10T09:00:00.000Z" }],
  ])("link sent 2026-03-01T09:00Z, %i reminder(s) sent, grace 2 days → %o", (remindersSent, expected) => {
    expect(plain(nextLinkStep(DEFAULT_DUNNING_POLICY, { sentAt: SENT, remindersSent }, GRACE_DAYS))).toEqual(
      expected,
    );
  });

  it("counts from the link's instant whatever zone it is given in", () => {
    const doha = DateTime.fromISO("2026-03-01T12:00:00", { zone: "Asia/Qatar" });
    expect(
      plain(nextLinkStep(DEFAULT_DUNNING_POLICY, { sentAt: doha, remindersSent: 4 }, GRACE_DAYS)),
    ).toEqual({ kind: "end", action: "unpaid", at: "2026-03-10T09:00:00.000Z" });
  });
});

describe("nextLinkStep with other policies", () => {
  const once: DunningPolicy = { retryOffsetsDays: [1, 3, 5, 7], maxAttempts: 1, terminalAction: "unpaid" };
  const cancel: DunningPolicy = { retryOffsetsDays: [2, 4], maxAttempts: 3, terminalAction: "cancel" };

  it.each([
    // maxAttempts 1: no reminder at all; the link's grace runs from when it went out.
    ["maxAttempts 1", once, 0, { kind: "end", action: "unpaid", at: "2026-03-03T09:00:00.000Z" }],
    ["cancel", cancel, 0, { kind: "remind", number: 1, at: "2026-03-03T09:00:00.000Z" }],
    ["cancel", cancel, 1, { kind: "remind", number: 2, at: "2026-03-05T09:00:00.000Z" }],
    ["cancel", cancel, 2, { kind: "end", action: "cancel", at: "2026-03-07T09:00:00.000Z" }],
  ])("%s policy, %i reminder(s) sent → %o", (_name, policy, remindersSent, expected) => {
    expect(plain(nextLinkStep(policy, { sentAt: SENT, remindersSent }, GRACE_DAYS))).toEqual(expected);
  });

  it("ends at the link's own time plus the grace days when there are no reminders", () => {
    const step = nextLinkStep(once, { sentAt: SENT, remindersSent: 0 }, 5);
    expect(plain(step)).toEqual({ kind: "end", action: "unpaid", at: "2026-03-06T09:00:00.000Z" });
  });

  it("ends with cancel under the default days when the policy says so", () => {
    const step = nextLinkStep(
      { ...DEFAULT_DUNNING_POLICY, terminalAction: "cancel" },
      { sentAt: SENT, remindersSent: 4 },
      GRACE_DAYS,
    );
    expect(plain(step)).toEqual({ kind: "end", action: "cancel", at: "2026-03-10T09:00:00.000Z" });
  });
});

describe("nextLinkStep refuses", () => {
  it.each([-1, -4, 1.5, Number.NaN])("remindersSent %s", (remindersSent) => {
    expect(() => nextLinkStep(DEFAULT_DUNNING_POLICY, { sentAt: SENT, remindersSent }, GRACE_DAYS)).toThrow(
      RangeError,
    );
  });
});
