import { describe, expect, it } from "vitest";
import {
  type ChangingSubscription,
  type PlanFacts,
  planChangeRefusal,
} from "../../../src/plan-changes/index.js";

/** The rules changePlan applies and the portal offers by: which one a move breaks, if any. */

const plan = (id: string, overrides: Partial<PlanFacts> = {}): PlanFacts => ({
  id,
  name: id,
  price: { model: "per_unit", unitAmountMinor: 10_000 },
  quantity: 1,
  amountMinor: 10_000,
  currency: "QAR",
  interval: { unit: "month", count: 1 },
  billingMode: "autosave",
  archived: false,
  ...overrides,
});

const active: ChangingSubscription = {
  status: "active",
  collectionMethod: "charge_automatically",
  cardKind: "autosave",
  cardAmountMinor: null,
};
const recurringCard: ChangingSubscription = {
  status: "active",
  collectionMethod: "charge_automatically",
  cardKind: "recurring",
  cardAmountMinor: 10_000,
};
const BASIC = plan("basic");

describe("planChangeRefusal", () => {
  it.each<[string, ChangingSubscription, PlanFacts | undefined, string | null]>([
    ["an autosave card to a dearer plan", active, plan("gold", { amountMinor: 20_000 }), null],
    ["a trial", { ...active, status: "trialing" }, plan("gold", { amountMinor: 20_000 }), null],
    ["past_due, whatever the plan", { ...active, status: "past_due" }, plan("gold"), "subscription_past_due"],
    ["paused", { ...active, status: "paused" }, plan("gold"), "subscription_not_changeable"],
    ["canceled", { ...active, status: "canceled" }, plan("gold"), "subscription_not_changeable"],
    ["no such plan", active, undefined, "plan_not_found"],
    ["the plan it is on", active, BASIC, "same_plan"],
    [
      "the plan it is on, at another quantity",
      active,
      plan("basic", { quantity: 3, amountMinor: 30_000 }),
      null,
    ],
    ["an archived plan", active, plan("old", { archived: true }), "plan_archived"],
    [
      "its own archived plan, at another quantity",
      active,
      plan("basic", { archived: true, quantity: 2, amountMinor: 20_000 }),
      null,
    ],
    [
      "a recurring card to more seats, which cost more",
      recurringCard,
      plan("basic", { quantity: 2, amountMinor: 20_000 }),
      "card_amount_fixed",
    ],
    ["another currency", active, plan("usd", { currency: "USD" }), "currency_mismatch"],
    ["a recurring card to a plan of its amount and interval", recurringCard, plan("twin"), null],
    [
      "a recurring card to another price",
      recurringCard,
      plan("gold", { amountMinor: 20_000 }),
      "card_amount_fixed",
    ],
    [
      "a recurring card to another interval",
      recurringCard,
      plan("yearly", { interval: { unit: "year", count: 1 } }),
      "card_amount_fixed",
    ],
    [
      "a recurring card's subscription paying by link, to another price",
      { ...recurringCard, collectionMethod: "send_payment_link" },
      plan("gold", { amountMinor: 20_000 }),
      null,
    ],
    // The token pays what it was enrolled for, even when the plan's price has moved since.
    [
      "a recurring card enrolled for 90.00, to a plan of the current 100.00",
      { ...recurringCard, cardAmountMinor: 9_000 },
      plan("twin"),
      "card_amount_fixed",
    ],
  ])("%s", (_name, subscription, to, refusal) => {
    expect(planChangeRefusal(subscription, BASIC, to)).toBe(refusal);
  });

  it("reads a subscription without a card by its plan's billing mode", () => {
    const noCard: ChangingSubscription = { ...active, cardKind: null };
    const gold = plan("gold", { amountMinor: 20_000 });
    expect(planChangeRefusal(noCard, plan("basic", { billingMode: "recurring" }), gold)).toBe(
      "card_amount_fixed",
    );
    expect(planChangeRefusal(noCard, plan("basic", { billingMode: "autosave" }), gold)).toBeNull();
  });
});
