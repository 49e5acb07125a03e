import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  type EntitlementPolicy,
  entitlementsOf,
  type FeatureGrant,
  type SubscriptionGrants,
  type SubscriptionState,
  standing,
  type UnpaidCharge,
} from "../../../src/billing/index.js";

const at = (iso: string) => DateTime.fromISO(iso, { zone: "utc" });
const policy: EntitlementPolicy = { pastDueGraceDays: 7 };

const projects = (limit: number | null): FeatureGrant => ({ feature: "projects", kind: "limit", limit });
const sso: FeatureGrant = { feature: "sso", kind: "boolean", limit: null };

function subscription(
  status: SubscriptionState,
  features: FeatureGrant[] = [sso, projects(10)],
  unpaidCharges: UnpaidCharge[] = [],
  id = `sub-${status}`,
): SubscriptionGrants {
  return { id, status, features, unpaidCharges };
}

/** A charge first declined on 1 March 09:00 UTC: its 7-day grace ends on 8 March 09:00 UTC. */
const declined: UnpaidCharge = {
  firstFailedAt: at("2026-03-01T09:00:00Z"),
  dueAt: at("2026-02-28T09:00:00Z"),
  outcomeUnknown: false,
};

describe("standing", () => {
  it.each(["trialing", "active"] as const)("%s grants, with no end", (status) => {
    expect(standing(subscription(status), at("2026-03-01T00:00:00Z"), policy)).toEqual({
      grants: true,
      until: null,
    });
  });

  it.each(["paused", "unpaid", "canceled", "pending_enrollment"] as const)("%s grants nothing", (status) => {
    expect(standing(subscription(status), at("2026-03-01T00:00:00Z"), policy)).toEqual({ grants: false });
  });

  it("past_due grants until the grace ends, counted from the first failure, and not at that instant", () => {
    const late = subscription("past_due", undefined, [declined]);
    const end = at("2026-03-08T09:00:00Z");
    expect(standing(late, at("2026-03-01T09:00:00Z"), policy)).toEqual({ grants: true, until: end });
    expect(standing(late, at("2026-03-08T08:59:59.999Z"), policy)).toEqual({ grants: true, until: end });
    expect(standing(late, at("2026-03-08T09:00:00Z"), policy)).toEqual({ grants: false });
    expect(standing(late, at("2026-03-20T00:00:00Z"), policy)).toEqual({ grants: false });
  });

  it("counts from when the charge became due when no attempt failed yet", () => {
    const late = subscription("past_due", undefined, [{ ...declined, firstFailedAt: null }]);
    expect(standing(late, at("2026-03-07T08:59:59Z"), policy)).toMatchObject({ grants: true });
    expect(standing(late, at("2026-03-07T09:00:00Z"), policy)).toEqual({ grants: false });
  });

  it("follows the grace days of the policy, 0 cutting off at the first failure", () => {
    const late = subscription("past_due", undefined, [declined]);
    expect(standing(late, at("2026-03-02T08:59:59Z"), { pastDueGraceDays: 1 })).toMatchObject({
      grants: true,
    });
    expect(standing(late, at("2026-03-02T09:00:00Z"), { pastDueGraceDays: 1 })).toEqual({ grants: false });
    expect(standing(late, at("2026-03-01T09:00:00Z"), { pastDueGraceDays: 0 })).toEqual({ grants: false });
  });

  it("never cuts a subscription off for a charge whose gateway outcome is not known", () => {
    const held = subscription("past_due", undefined, [{ ...declined, outcomeUnknown: true }]);
    expect(standing(held, at("2027-01-01T00:00:00Z"), policy)).toEqual({ grants: true, until: null });
  });

  it("cuts it off for a known failure past its grace even when another charge is unknown", () => {
    const both = subscription("past_due", undefined, [
      { ...declined, outcomeUnknown: true },
      { ...declined, firstFailedAt: at("2026-03-05T00:00:00Z") },
    ]);
    expect(standing(both, at("2026-03-11T23:59:59Z"), policy)).toEqual({
      grants: true,
      until: at("2026-03-12T00:00:00Z"),
    });
    expect(standing(both, at("2026-03-12T00:00:00Z"), policy)).toEqual({ grants: false });
  });

  it("keeps granting a past_due subscription when no open charge is found: nothing known is owed", () => {
    expect(standing(subscription("past_due"), at("2026-03-01T00:00:00Z"), policy)).toEqual({
      grants: true,
      until: null,
    });
  });
});

describe("entitlementsOf", () => {
  const now = at("2026-03-10T00:00:00Z");

  it("merges several subscriptions: a switch on if any grants it, the largest limit, null beating numbers", () => {
    const result = entitlementsOf(
      [
        subscription("active", [projects(10)], [], "a"),
        subscription("trialing", [sso, projects(25)], [], "b"),
        subscription(
          "canceled",
          [projects(null), { feature: "audit", kind: "boolean", limit: null }],
          [],
          "c",
        ),
      ],
      now,
      policy,
    );
    expect(result).toEqual({
      entitlements: [
        { feature: "projects", kind: "limit", enabled: true, limit: 25 },
        { feature: "sso", kind: "boolean", enabled: true, limit: null },
      ],
      subscriptions: ["a", "b"],
      graceEndsAt: null,
    });

    const unlimited = entitlementsOf(
      [subscription("active", [projects(10)], [], "a"), subscription("active", [projects(null)], [], "b")],
      now,
      policy,
    );
    expect(unlimited.entitlements).toEqual([
      { feature: "projects", kind: "limit", enabled: true, limit: null },
    ]);
  });

  it("a limit of 0 is still granted, and loses to any larger one", () => {
    const result = entitlementsOf(
      [subscription("active", [projects(0)], [], "a"), subscription("active", [projects(3)], [], "b")],
      now,
      policy,
    );
    expect(result.entitlements).toEqual([{ feature: "projects", kind: "limit", enabled: true, limit: 3 }]);
    expect(entitlementsOf([subscription("active", [projects(0)])], now, policy).entitlements).toEqual([
      { feature: "projects", kind: "limit", enabled: true, limit: 0 },
    ]);
  });

  it("past_due within grace grants and says when the grace ends; past it grants nothing", () => {
    const within = entitlementsOf(
      [subscription("past_due", [sso], [{ ...declined, firstFailedAt: at("2026-03-05T00:00:00Z") }], "p")],
      now,
      policy,
    );
    expect(within).toEqual({
      entitlements: [{ feature: "sso", kind: "boolean", enabled: true, limit: null }],
      subscriptions: ["p"],
      graceEndsAt: at("2026-03-12T00:00:00Z"),
    });

    const past = entitlementsOf([subscription("past_due", [sso], [declined], "p")], now, policy);
    expect(past).toEqual({ entitlements: [], subscriptions: [], graceEndsAt: null });
  });

  it("an active subscription keeps a feature a lapsed past_due one no longer grants", () => {
    const result = entitlementsOf(
      [
        subscription("past_due", [sso, projects(50)], [declined], "p"),
        subscription("active", [projects(5)], [], "a"),
      ],
      now,
      policy,
    );
    expect(result.entitlements).toEqual([{ feature: "projects", kind: "limit", enabled: true, limit: 5 }]);
    expect(result.subscriptions).toEqual(["a"]);
  });

  it("grants nothing without subscriptions", () => {
    expect(entitlementsOf([], now, policy)).toEqual({
      entitlements: [],
      subscriptions: [],
      graceEndsAt: null,
    });
  });
});
