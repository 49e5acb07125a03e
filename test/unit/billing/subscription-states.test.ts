import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  assertTransition,
  cancellationEffectiveAt,
  canTransition,
  IllegalTransitionError,
  isBilling,
  isLive,
  isSubscriptionState,
  isTerminalSubscriptionState,
  SUBSCRIPTION_STATES,
  SUBSCRIPTION_TRANSITIONS,
  type SubscriptionState,
} from "../../../src/billing/index.js";

/** The whole table as "from → to" lines, so a change to it shows up as a readable diff. */
const EXPECTED_MOVES = [
  "pending_enrollment → trialing",
  "pending_enrollment → active",
  "pending_enrollment → canceled",
  "trialing → active",
  "trialing → past_due",
  "trialing → unpaid",
  "trialing → canceled",
  "active → active",
  "active → past_due",
  "active → unpaid",
  "active → paused",
  "active → canceled",
  "past_due → active",
  "past_due → unpaid",
  "past_due → canceled",
  "unpaid → active",
  "unpaid → canceled",
  "paused → active",
  "paused → canceled",
];

const allPairs = SUBSCRIPTION_STATES.flatMap((from) => SUBSCRIPTION_STATES.map((to) => [from, to] as const));

describe("subscription transition table", () => {
  it("allows exactly the documented moves", () => {
    const allowed = allPairs
      .filter(([from, to]) => canTransition(from, to))
      .map(([from, to]) => `${from} → ${to}`);
    expect(allowed).toEqual(EXPECTED_MOVES);
  });

  it("lists every state, and only known states as targets", () => {
    expect(Object.keys(SUBSCRIPTION_TRANSITIONS).sort()).toEqual([...SUBSCRIPTION_STATES].sort());
    for (const targets of Object.values(SUBSCRIPTION_TRANSITIONS)) {
      for (const to of targets) expect(isSubscriptionState(to)).toBe(true);
    }
  });

  it.each([
    ["canceled", "active"],
    ["canceled", "trialing"],
    ["past_due", "paused"],
    ["unpaid", "paused"],
    ["trialing", "paused"],
    ["paused", "past_due"],
    ["pending_enrollment", "past_due"],
    ["past_due", "past_due"],
    ["unpaid", "past_due"],
    ["active", "trialing"],
  ] as const)("refuses %s → %s with a message naming both states", (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    expect(() => assertTransition(from, to)).toThrow(IllegalTransitionError);
    expect(() => assertTransition(from, to)).toThrow(`cannot move a subscription from ${from} to ${to}`);
  });

  it("assertTransition agrees with canTransition for every pair", () => {
    fc.assert(
      fc.property(fc.constantFrom(...allPairs), ([from, to]) => {
        if (canTransition(from, to)) expect(() => assertTransition(from, to)).not.toThrow();
        else expect(() => assertTransition(from, to)).toThrow(IllegalTransitionError);
      }),
    );
  });

  it("canceled is the only terminal state, and every state can still be canceled", () => {
    expect(SUBSCRIPTION_STATES.filter(isTerminalSubscriptionState)).toEqual(["canceled"]);
    for (const state of SUBSCRIPTION_STATES) {
      if (state !== "canceled") expect(canTransition(state, "canceled")).toBe(true);
    }
  });

  it("every state is reachable from pending_enrollment", () => {
    const seen = new Set<SubscriptionState>(["pending_enrollment"]);
    const queue: SubscriptionState[] = ["pending_enrollment"];
    for (let state = queue.shift(); state; state = queue.shift()) {
      for (const next of SUBSCRIPTION_TRANSITIONS[state]) {
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    expect([...seen].sort()).toEqual([...SUBSCRIPTION_STATES].sort());
  });

  it("rejects unknown state names", () => {
    expect(isSubscriptionState("active")).toBe(true);
    expect(isSubscriptionState("cancelled")).toBe(false);
  });
});

describe("isBilling", () => {
  it.each([
    ["pending_enrollment", false],
    ["trialing", true],
    ["active", true],
    ["past_due", false],
    ["unpaid", false],
    ["paused", false],
    ["canceled", false],
  ] as const)("%s → %s", (state, billing) => {
    expect(isBilling(state)).toBe(billing);
  });
});

describe("cancellationEffectiveAt", () => {
  const now = DateTime.fromISO("2027-03-10T08:00:00.000Z");
  const periodEnd = DateTime.fromISO("2027-03-30T21:00:00.000Z");

  it.each([
    ["immediately", periodEnd, "2027-03-10T08:00:00.000Z"],
    ["at_period_end", periodEnd, "2027-03-30T21:00:00.000Z"],
    ["at_period_end", now.minus({ days: 1 }), "2027-03-10T08:00:00.000Z"],
  ] as const)("%s with period end %s → %s", (mode, end, expected) => {
    expect(cancellationEffectiveAt(mode, now, end).toISO()).toBe(expected);
  });
});

describe("isLive", () => {
  it("is the states with a period running to a next billing", () => {
    expect(SUBSCRIPTION_STATES.filter(isLive)).toEqual(["trialing", "active", "past_due"]);
    expect(isLive("not-a-state")).toBe(false);
  });
});
