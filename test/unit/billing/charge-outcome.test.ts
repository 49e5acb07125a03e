import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  type AttemptOutcome,
  CHARGE_STATES,
  type ChargeOutcomeInput,
  type ChargeState,
  canChargeTransition,
  canTransition,
  chargeOutcome,
  DEFAULT_DUNNING_POLICY,
  IllegalTransitionError,
  parseDunningPolicy,
  SUBSCRIPTION_STATES,
  type SubscriptionState,
} from "../../../src/billing/index.js";

const NOW = "2027-03-10T08:00:00.000Z";
const at = (iso: string) => DateTime.fromISO(iso, { zone: "utc" });
const CANCEL = { ...DEFAULT_DUNNING_POLICY, terminalAction: "cancel" as const };

const approved: AttemptOutcome = { kind: "approved", transactionId: "T-1" };
const soft: AttemptOutcome = { kind: "declined", description: "Insufficient funds" };
const hard: AttemptOutcome = { kind: "declined", description: "Expired card" };
const unknown: AttemptOutcome = { kind: "unknown" };
const deadToken: AttemptOutcome = { kind: "token_unusable", description: "-7" };
const rejected: AttemptOutcome = { kind: "rejected", code: -10, description: "Bad Request" };

function input(overrides: Partial<ChargeOutcomeInput>): ChargeOutcomeInput {
  return {
    chargeState: "processing",
    subscriptionState: "active",
    outcome: approved,
    policy: DEFAULT_DUNNING_POLICY,
    attemptsMade: 1,
    firstFailedAt: null,
    now: at(NOW),
    ...overrides,
  };
}

interface Summary {
  charge: ChargeState;
  next: string | null;
  firstFailed: string | null;
  subscription: string | null;
  events: string[];
}

/** The result flattened to literals, so each table row reads as one line. */
function summary(overrides: Partial<ChargeOutcomeInput>): Summary {
  const result = chargeOutcome(input(overrides));
  return {
    charge: result.chargeState,
    next: result.nextAttemptAt?.toISO() ?? null,
    firstFailed: result.firstFailedAt?.toISO() ?? null,
    subscription: result.subscriptionChange
      ? `${result.subscriptionChange.from} → ${result.subscriptionChange.to}`
      : null,
    events: result.events.map((event) => event.type),
  };
}

const PAID = ["charge.paid"];
const PAID_AND_MOVED = ["charge.paid", "subscription.state_changed"];
const RETRY = ["charge.declined", "charge.retry_scheduled"];
const RETRY_AND_MOVED = [...RETRY, "subscription.state_changed"];
const GIVE_UP = ["charge.declined", "charge.uncollectible", "subscription.state_changed"];
const DEAD_TOKEN = ["payment_method.unusable", "charge.uncollectible", "subscription.state_changed"];

describe("chargeOutcome: decision table", () => {
  const firstFailure = "2027-03-07T08:00:00.000Z";

  it.each<[string, Partial<ChargeOutcomeInput>, Summary]>([
    // approved
    ["renewal paid", {}, { charge: "paid", next: null, firstFailed: null, subscription: null, events: PAID }],
    [
      "trial converts",
      { subscriptionState: "trialing" },
      {
        charge: "paid",
        next: null,
        firstFailed: null,
        subscription: "trialing → active",
        events: PAID_AND_MOVED,
      },
    ],
    [
      "a retry pays the debt",
      { subscriptionState: "past_due", attemptsMade: 3, firstFailedAt: at(firstFailure) },
      {
        charge: "paid",
        next: null,
        firstFailed: firstFailure,
        subscription: "past_due → active",
        events: PAID_AND_MOVED,
      },
    ],
    [
      "a new card pays an unpaid subscription",
      { chargeState: "processing", subscriptionState: "unpaid" },
      {
        charge: "paid",
        next: null,
        firstFailed: null,
        subscription: "unpaid → active",
        events: PAID_AND_MOVED,
      },
    ],
    [
      "late approval while paused changes only the charge",
      { subscriptionState: "paused" },
      { charge: "paid", next: null, firstFailed: null, subscription: null, events: PAID },
    ],
    [
      "late approval after cancellation changes only the charge, and is flagged for an operator",
      { subscriptionState: "canceled" },
      {
        charge: "paid",
        next: null,
        firstFailed: null,
        subscription: null,
        events: ["charge.paid", "charge.paid_after_cancellation"],
      },
    ],
    [
      "review finds the money was taken after cancellation",
      { chargeState: "needs_review", subscriptionState: "canceled", attemptsMade: 2 },
      {
        charge: "paid",
        next: null,
        firstFailed: null,
        subscription: null,
        events: ["charge.paid", "charge.paid_after_cancellation"],
      },
    ],
    [
      "review finds the money was taken",
      {
        chargeState: "needs_review",
        subscriptionState: "past_due",
        attemptsMade: 2,
        firstFailedAt: at(firstFailure),
      },
      {
        charge: "paid",
        next: null,
        firstFailed: firstFailure,
        subscription: "past_due → active",
        events: PAID_AND_MOVED,
      },
    ],
    // retryable decline
    [
      "first renewal decline schedules day 1",
      { outcome: soft },
      {
        charge: "retrying",
        next: "2027-03-11T08:00:00.000Z",
        firstFailed: NOW,
        subscription: "active → past_due",
        events: RETRY_AND_MOVED,
      },
    ],
    [
      "trial-end decline",
      { outcome: soft, subscriptionState: "trialing" },
      {
        charge: "retrying",
        next: "2027-03-11T08:00:00.000Z",
        firstFailed: NOW,
        subscription: "trialing → past_due",
        events: RETRY_AND_MOVED,
      },
    ],
    [
      "do not honour at trial end is retried, even with policy cancel",
      {
        outcome: { kind: "declined", description: "DO NOT HONOUR" },
        policy: CANCEL,
        subscriptionState: "trialing",
      },
      {
        charge: "retrying",
        next: "2027-03-11T08:00:00.000Z",
        firstFailed: NOW,
        subscription: "trialing → past_due",
        events: RETRY_AND_MOVED,
      },
    ],
    [
      "third attempt declined: retry on day 5 after the first failure",
      { outcome: soft, subscriptionState: "past_due", attemptsMade: 3, firstFailedAt: at(firstFailure) },
      {
        charge: "retrying",
        next: "2027-03-12T08:00:00.000Z",
        firstFailed: firstFailure,
        subscription: null,
        events: RETRY,
      },
    ],
    [
      "a late attempt keeps the planned gap",
      {
        outcome: soft,
        subscriptionState: "past_due",
        attemptsMade: 2,
        firstFailedAt: at("2027-03-01T08:00:00.000Z"),
      },
      {
        charge: "retrying",
        next: "2027-03-12T08:00:00.000Z",
        firstFailed: "2027-03-01T08:00:00.000Z",
        subscription: null,
        events: RETRY,
      },
    ],
    [
      "review finds no money taken: back to retrying",
      { chargeState: "needs_review", outcome: soft, subscriptionState: "active", attemptsMade: 1 },
      {
        charge: "retrying",
        next: "2027-03-11T08:00:00.000Z",
        firstFailed: NOW,
        subscription: "active → past_due",
        events: RETRY_AND_MOVED,
      },
    ],
    [
      "a new card declined while unpaid stays unpaid",
      { outcome: soft, subscriptionState: "unpaid" },
      {
        charge: "retrying",
        next: "2027-03-11T08:00:00.000Z",
        firstFailed: NOW,
        subscription: null,
        events: RETRY,
      },
    ],
    // dunning exhausted
    [
      "last retry declined → unpaid",
      { outcome: soft, subscriptionState: "past_due", attemptsMade: 5, firstFailedAt: at(firstFailure) },
      {
        charge: "uncollectible",
        next: null,
        firstFailed: firstFailure,
        subscription: "past_due → unpaid",
        events: GIVE_UP,
      },
    ],
    [
      "last retry declined → canceled by policy",
      {
        outcome: soft,
        policy: CANCEL,
        subscriptionState: "past_due",
        attemptsMade: 5,
        firstFailedAt: at(firstFailure),
      },
      {
        charge: "uncollectible",
        next: null,
        firstFailed: firstFailure,
        subscription: "past_due → canceled",
        events: GIVE_UP,
      },
    ],
    [
      "a policy without retries gives up at once",
      { outcome: soft, policy: parseDunningPolicy({ retryOffsetsDays: [] }) },
      {
        charge: "uncollectible",
        next: null,
        firstFailed: NOW,
        subscription: "active → unpaid",
        events: GIVE_UP,
      },
    ],
    // hard decline: no retries
    [
      "expired card on renewal",
      { outcome: hard },
      {
        charge: "uncollectible",
        next: null,
        firstFailed: NOW,
        subscription: "active → unpaid",
        events: GIVE_UP,
      },
    ],
    [
      "stolen card at trial end, policy cancel",
      {
        outcome: { kind: "declined", description: "STOLEN CARD" },
        policy: CANCEL,
        subscriptionState: "trialing",
      },
      {
        charge: "uncollectible",
        next: null,
        firstFailed: NOW,
        subscription: "trialing → canceled",
        events: GIVE_UP,
      },
    ],
    [
      "hard decline on a retry",
      { outcome: hard, subscriptionState: "past_due", attemptsMade: 2, firstFailedAt: at(firstFailure) },
      {
        charge: "uncollectible",
        next: null,
        firstFailed: firstFailure,
        subscription: "past_due → unpaid",
        events: GIVE_UP,
      },
    ],
    // unknown and rejected: stop and ask a human
    [
      "unknown outcome",
      { outcome: unknown },
      {
        charge: "needs_review",
        next: null,
        firstFailed: null,
        subscription: null,
        events: ["charge.needs_review"],
      },
    ],
    [
      "unknown outcome on a retry keeps the dunning clock",
      { outcome: unknown, subscriptionState: "past_due", attemptsMade: 2, firstFailedAt: at(firstFailure) },
      {
        charge: "needs_review",
        next: null,
        firstFailed: firstFailure,
        subscription: null,
        events: ["charge.needs_review"],
      },
    ],
    [
      "gateway rejected the request",
      { outcome: rejected },
      {
        charge: "needs_review",
        next: null,
        firstFailed: null,
        subscription: null,
        events: ["charge.needs_review"],
      },
    ],
    // unusable token
    [
      "token found expired before the first attempt",
      { chargeState: "scheduled", outcome: deadToken, attemptsMade: 0 },
      {
        charge: "uncollectible",
        next: null,
        firstFailed: null,
        subscription: "active → unpaid",
        events: DEAD_TOKEN,
      },
    ],
    [
      "token dead before a retry",
      { chargeState: "retrying", outcome: deadToken, subscriptionState: "past_due", attemptsMade: 2 },
      {
        charge: "uncollectible",
        next: null,
        firstFailed: null,
        subscription: "past_due → unpaid",
        events: DEAD_TOKEN,
      },
    ],
    [
      "gateway says -7 at trial end, policy cancel",
      { outcome: deadToken, policy: CANCEL, subscriptionState: "trialing" },
      {
        charge: "uncollectible",
        next: null,
        firstFailed: null,
        subscription: "trialing → canceled",
        events: DEAD_TOKEN,
      },
    ],
    [
      "dead token while paused changes only the charge",
      { outcome: deadToken, subscriptionState: "paused" },
      {
        charge: "uncollectible",
        next: null,
        firstFailed: null,
        subscription: null,
        events: ["payment_method.unusable", "charge.uncollectible"],
      },
    ],
  ])("%s", (_, overrides, expected) => {
    expect(summary(overrides)).toEqual(expected);
  });

  it("records the details the customer notice and the ledger need", () => {
    const result = chargeOutcome(
      input({
        outcome: soft,
        subscriptionState: "past_due",
        attemptsMade: 2,
        firstFailedAt: at("2027-03-09T08:00Z"),
      }),
    );
    const [declined, scheduled] = result.events;
    expect(declined).toEqual({
      type: "charge.declined",
      attempt: 2,
      decline: "retryable_decline",
      reason: "insufficient_funds",
      description: "Insufficient funds",
    });
    expect(scheduled?.type === "charge.retry_scheduled" && [scheduled.attempt, scheduled.at.toISO()]).toEqual(
      [3, "2027-03-12T08:00:00.000Z"],
    );
    expect(result.events).toHaveLength(2);
    expect(chargeOutcome(input({ outcome: approved })).events).toEqual([
      { type: "charge.paid", attempt: 1, transactionId: "T-1" },
    ]);
    expect(chargeOutcome(input({ outcome: approved, subscriptionState: "canceled" })).events).toEqual([
      { type: "charge.paid", attempt: 1, transactionId: "T-1" },
      { type: "charge.paid_after_cancellation", attempt: 1, transactionId: "T-1" },
    ]);
    expect(chargeOutcome(input({ outcome: rejected })).events).toEqual([
      { type: "charge.needs_review", reason: "gateway_rejected", code: -10, description: "Bad Request" },
    ]);
    expect(chargeOutcome(input({ outcome: hard })).events).toContainEqual({
      type: "charge.uncollectible",
      reason: "hard_decline",
    });
  });

  it.each<[string, Partial<ChargeOutcomeInput>, RegExp]>([
    ["approval of a charge not in flight", { chargeState: "scheduled" }, /not scheduled/],
    ["decline of a retrying charge", { chargeState: "retrying", outcome: soft }, /not retrying/],
    ["a second outcome for a paid charge", { chargeState: "paid" }, /not paid/],
    [
      "unknown again while under review",
      { chargeState: "needs_review", outcome: unknown },
      /not needs_review/,
    ],
    ["an outcome without an attempt", { outcome: soft, attemptsMade: 0 }, /attemptsMade/],
    ["a negative attempt count", { outcome: deadToken, attemptsMade: -1 }, /attemptsMade/],
  ])("refuses %s", (_, overrides, message) => {
    expect(() => chargeOutcome(input(overrides))).toThrow(message);
  });

  it("refuses a dead token on a charge that is already paid, naming the move", () => {
    expect(() => chargeOutcome(input({ chargeState: "paid", outcome: deadToken }))).toThrow(
      IllegalTransitionError,
    );
    expect(() => chargeOutcome(input({ chargeState: "paid", outcome: deadToken }))).toThrow(
      "cannot move a charge from paid to uncollectible",
    );
  });
});

describe("chargeOutcome: a stored decline found paid", () => {
  // An attempt recorded as declined without the gateway's transaction id, which CheckStatus
  // later finds SUCCESS, pays its charge instead of a new attempt.
  const foundPaid: AttemptOutcome = { kind: "found_paid", transactionId: "T-7" };

  it.each<[string, Partial<ChargeOutcomeInput>, Summary]>([
    [
      "a retrying charge is paid; its past_due subscription is active again",
      { chargeState: "retrying", subscriptionState: "past_due" },
      {
        charge: "paid",
        next: null,
        firstFailed: null,
        subscription: "past_due → active",
        events: PAID_AND_MOVED,
      },
    ],
    [
      "an uncollectible charge is paid; its unpaid subscription is active again",
      { chargeState: "uncollectible", subscriptionState: "unpaid" },
      {
        charge: "paid",
        next: null,
        firstFailed: null,
        subscription: "unpaid → active",
        events: PAID_AND_MOVED,
      },
    ],
    [
      "the first failure is kept as it was",
      { chargeState: "retrying", subscriptionState: "past_due", firstFailedAt: at("2027-03-07T08:00Z") },
      {
        charge: "paid",
        next: null,
        firstFailed: "2027-03-07T08:00:00.000Z",
        subscription: "past_due → active",
        events: PAID_AND_MOVED,
      },
    ],
    [
      "a canceled subscription stays canceled and an operator is told",
      { chargeState: "uncollectible", subscriptionState: "canceled" },
      {
        charge: "paid",
        next: null,
        firstFailed: null,
        subscription: null,
        events: ["charge.paid", "charge.paid_after_cancellation"],
      },
    ],
    [
      "no attempt on the current card is needed (the card was replaced since)",
      { chargeState: "retrying", subscriptionState: "past_due", attemptsMade: 0 },
      {
        charge: "paid",
        next: null,
        firstFailed: null,
        subscription: "past_due → active",
        events: PAID_AND_MOVED,
      },
    ],
  ])("%s", (_, overrides, expected) => {
    expect(summary({ outcome: foundPaid, ...overrides })).toEqual(expected);
  });

  it("reports the payment with the found transaction", () => {
    const result = chargeOutcome(input({ outcome: foundPaid, chargeState: "retrying", attemptsMade: 2 }));
    expect(result.events[0]).toEqual({ type: "charge.paid", attempt: 2, transactionId: "T-7" });
  });

  it.each<ChargeState>(["scheduled", "processing", "needs_review", "awaiting_payment", "paid", "canceled"])(
    "refuses a charge in %s: only a charge waiting after a decline has one to overturn",
    (chargeState) => {
      expect(() => chargeOutcome(input({ outcome: foundPaid, chargeState }))).toThrow(RangeError);
    },
  );
});

describe("chargeOutcome: properties", () => {
  const outcomeArb: fc.Arbitrary<AttemptOutcome> = fc.oneof(
    fc.constant(approved),
    fc
      .constantFrom("Insufficient funds", "Expired card", "Do not honour", "Issuer unavailable", "declined")
      .map((description): AttemptOutcome => ({ kind: "declined", description })),
    fc.constant(unknown),
    fc.constant(deadToken),
    fc.constant(rejected),
    fc.constant<AttemptOutcome>({ kind: "found_paid", transactionId: "T-7" }),
  );
  const policyArb = fc.constantFrom(
    DEFAULT_DUNNING_POLICY,
    CANCEL,
    parseDunningPolicy({ retryOffsetsDays: [0, 2, 9], maxAttempts: 3 }),
    parseDunningPolicy({ retryOffsetsDays: [] }),
  );
  const inputArb = fc.record({
    chargeState: fc.constantFrom<ChargeState>(...CHARGE_STATES),
    subscriptionState: fc.constantFrom<SubscriptionState>(...SUBSCRIPTION_STATES),
    outcome: outcomeArb,
    policy: policyArb,
    attemptsMade: fc.integer({ min: 0, max: 8 }),
    firstFailedAt: fc.option(fc.constant(at("2027-03-05T08:00:00.000Z")), { nil: null }),
    now: fc.integer({ min: 0, max: 20 * 86_400_000 }).map((ms) => at("2027-03-05T08:00:00.000Z").plus(ms)),
  });

  it("only makes moves allowed by the tables, and never plans an attempt in the past", () => {
    fc.assert(
      fc.property(inputArb, (candidate) => {
        let result: ReturnType<typeof chargeOutcome>;
        try {
          result = chargeOutcome(candidate);
        } catch (error) {
          // Refused inputs are refused loudly, never half-applied.
          expect(error instanceof RangeError || error instanceof IllegalTransitionError).toBe(true);
          return;
        }
        expect(canChargeTransition(candidate.chargeState, result.chargeState)).toBe(true);
        if (result.subscriptionChange) {
          expect(result.subscriptionChange.from).toBe(candidate.subscriptionState);
          expect(canTransition(result.subscriptionChange.from, result.subscriptionChange.to)).toBe(true);
        }
        expect(result.nextAttemptAt !== null).toBe(result.chargeState === "retrying");
        if (result.nextAttemptAt) expect(result.nextAttemptAt >= candidate.now).toBe(true);
        const moved = result.events.filter((event) => event.type === "subscription.state_changed");
        expect(moved.length).toBe(result.subscriptionChange ? 1 : 0);
        const flagged = result.events.filter((event) => event.type === "charge.paid_after_cancellation");
        expect(flagged.length).toBe(
          result.chargeState === "paid" && candidate.subscriptionState === "canceled" ? 1 : 0,
        );
      }),
    );
  });

  it("a dunning run ends paid or uncollectible within maxAttempts, the subscription active or terminal", () => {
    fc.assert(
      fc.property(
        policyArb,
        fc.array(fc.constantFrom("approve", "soft", "hard"), { minLength: 1, maxLength: 10 }),
        (policy, script) => {
          let charge: ChargeState = "processing";
          let subscription: SubscriptionState = "active";
          let firstFailedAt: DateTime | null = null;
          let now: DateTime = at(NOW);
          let attempts = 0;
          while (charge === "processing") {
            attempts += 1;
            const step = script[(attempts - 1) % script.length];
            const outcome = step === "approve" ? approved : step === "soft" ? soft : hard;
            const result = chargeOutcome({
              chargeState: charge,
              subscriptionState: subscription,
              outcome,
              policy,
              attemptsMade: attempts,
              firstFailedAt,
              now,
            });
            charge = result.chargeState;
            subscription = result.subscriptionChange?.to ?? subscription;
            firstFailedAt = result.firstFailedAt;
            if (result.nextAttemptAt) {
              now = result.nextAttemptAt;
              charge = "processing";
            }
          }
          expect(attempts).toBeLessThanOrEqual(policy.maxAttempts);
          expect(["paid", "uncollectible"]).toContain(charge);
          expect(subscription).toBe(
            charge === "paid" ? "active" : policy.terminalAction === "cancel" ? "canceled" : "unpaid",
          );
        },
      ),
    );
  });
});
