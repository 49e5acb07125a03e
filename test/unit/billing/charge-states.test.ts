import { describe, expect, it } from "vitest";
import {
  ATTEMPT_STATES,
  ATTEMPT_TRANSITIONS,
  assertAttemptTransition,
  assertChargeTransition,
  CHARGE_STATES,
  CHARGE_TRANSITIONS,
  canAttemptTransition,
  canChargeTransition,
  IllegalTransitionError,
  isTerminalAttemptState,
  isTerminalChargeState,
} from "../../../src/billing/index.js";

const pairs = <S extends string>(states: readonly S[]) =>
  states.flatMap((from) => states.map((to) => [from, to] as const));

describe("charge transition table", () => {
  it("allows exactly the documented moves", () => {
    const allowed = pairs(CHARGE_STATES)
      .filter(([from, to]) => canChargeTransition(from, to))
      .map(([from, to]) => `${from} → ${to}`);
    expect(allowed).toEqual([
      "scheduled → processing",
      "scheduled → awaiting_payment",
      "scheduled → paid",
      "scheduled → uncollectible",
      "scheduled → canceled",
      "processing → retrying",
      "processing → paid",
      "processing → needs_review",
      "processing → uncollectible",
      "retrying → processing",
      "retrying → awaiting_payment",
      "retrying → paid",
      "retrying → uncollectible",
      "retrying → canceled",
      "awaiting_payment → scheduled",
      "awaiting_payment → retrying",
      "awaiting_payment → paid",
      "awaiting_payment → uncollectible",
      "awaiting_payment → canceled",
      "needs_review → retrying",
      "needs_review → paid",
      "needs_review → uncollectible",
      "needs_review → canceled",
      "uncollectible → processing",
      "uncollectible → paid",
      "uncollectible → canceled",
    ]);
  });

  it("lists every state", () => {
    expect(Object.keys(CHARGE_TRANSITIONS).sort()).toEqual([...CHARGE_STATES].sort());
  });

  it.each([
    ["paid", "processing"],
    ["paid", "canceled"],
    ["canceled", "processing"],
    ["processing", "canceled"],
    ["processing", "processing"],
    ["awaiting_payment", "processing"],
  ] as const)("refuses %s → %s", (from, to) => {
    expect(canChargeTransition(from, to)).toBe(false);
    expect(() => assertChargeTransition(from, to)).toThrow(IllegalTransitionError);
    expect(() => assertChargeTransition(from, to)).toThrow(`cannot move a charge from ${from} to ${to}`);
  });

  it("paid and canceled are the terminal states", () => {
    expect(CHARGE_STATES.filter(isTerminalChargeState)).toEqual(["paid", "canceled"]);
  });
});

describe("payment attempt transition table", () => {
  it("allows exactly the documented moves", () => {
    const allowed = pairs(ATTEMPT_STATES)
      .filter(([from, to]) => canAttemptTransition(from, to))
      .map(([from, to]) => `${from} → ${to}`);
    expect(allowed).toEqual([
      "in_flight → approved",
      "in_flight → declined",
      "in_flight → unknown",
      "in_flight → failed_permanently",
      "unknown → approved",
      "unknown → declined",
      "unknown → needs_review",
      "unknown → failed_permanently",
      "needs_review → approved",
      "needs_review → declined",
      "needs_review → failed_permanently",
      "failed_permanently → approved",
    ]);
  });

  it("lists every state", () => {
    expect(Object.keys(ATTEMPT_TRANSITIONS).sort()).toEqual([...ATTEMPT_STATES].sort());
  });

  it.each([
    ["approved", "declined"],
    ["declined", "approved"],
    ["failed_permanently", "declined"],
    ["in_flight", "needs_review"],
    ["needs_review", "unknown"],
  ] as const)("refuses %s → %s", (from, to) => {
    expect(canAttemptTransition(from, to)).toBe(false);
    expect(() => assertAttemptTransition(from, to)).toThrow(
      `cannot move a payment attempt from ${from} to ${to}`,
    );
  });

  it("approved and declined are terminal; failed_permanently only opens to a late approval", () => {
    expect(ATTEMPT_STATES.filter(isTerminalAttemptState)).toEqual(["approved", "declined"]);
  });
});
