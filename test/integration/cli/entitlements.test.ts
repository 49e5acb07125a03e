import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { charges, subscriptions } from "../../../src/db/schema/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { type InProcessCli, inProcessCli } from "../../support/in-process-cli.js";

/**
 * `billing customers entitlements ID`, in-process on a fresh database: a person's table (each
 * feature's value and the subscriptions it comes from, the grace of a past_due one), the API's
 * answer with --json, and an unknown customer.
 */

const START = "2026-01-15T09:00:00.000Z";
let database: TestDatabase;
let cli: InProcessCli;

beforeAll(async () => {
  database = await createTestDatabase();
  cli = await inProcessCli(
    { DATABASE_URL: database.url, BILLING_CLOCK: "controllable", BILLING_CLOCK_START: START },
    "entitlements",
  );
  await cli.json("features", "create", "--code", "sso", "--name", "Single sign-on", "--kind", "boolean");
  await cli.json("features", "create", "--code", "projects", "--name", "Projects", "--kind", "limit");
});

afterAll(async () => {
  await database?.drop();
  await cli?.close();
});

async function plan(name: string, features: string[][]): Promise<string> {
  const created = await cli.json<{ id: string }>(
    ...["plans", "create", "--name", name, "--amount", "100.00", "--currency", "QAR", "--interval", "month"],
  );
  for (const feature of features) await cli.json("plans", "features", "set", created.id, ...feature);
  return created.id;
}

async function customer(): Promise<string> {
  return (await cli.json<{ id: string }>("customers", "create", "--email", `${randomUUID()}@example.qa`)).id;
}

async function subscription(customerId: string, planId: string, status: "active" | "past_due") {
  const [row] = await database.db
    .insert(subscriptions)
    .values({ customerId, planId, status, billingAnchor: new Date(START), nextBillingAt: new Date(START) })
    .returning({ id: subscriptions.id });
  return row!.id;
}

describe("billing customers entitlements", () => {
  it("shows each feature's value and where it comes from, and the API's answer with --json", async () => {
    const team = await plan("Team", [["sso"], ["projects", "--limit", "10"]]);
    const pro = await plan("Pro", [["projects", "--limit", "25"]]);
    const who = await customer();
    const active = await subscription(who, team, "active");
    const pastDue = await subscription(who, pro, "past_due");
    // Declined two days ago: the past_due subscription grants for the 7 days of grace from then.
    await database.db.insert(charges).values({
      subscriptionId: pastDue,
      planId: pro,
      periodStart: new Date("2026-01-13T09:00:00.000Z"),
      periodEnd: new Date("2026-02-13T09:00:00.000Z"),
      amountMinor: 10_000,
      currency: "QAR",
      status: "retrying",
      attemptCount: 1,
      firstFailedAt: new Date("2026-01-13T09:00:00.000Z"),
      nextAttemptAt: new Date("2026-01-16T09:00:00.000Z"),
    });

    expect(await cli.billing("customers", "entitlements", who)).toEqual({
      code: 0,
      stdout: [
        `customer_id    ${who}`,
        `as_of          ${START}`,
        "grace_ends_at  2026-01-20T09:00:00.000Z",
        "",
        "feature   kind     value  from",
        `projects  limit    25     ${active}, ${pastDue}`,
        `sso       boolean  on     ${active}`,
        "",
        "subscription                          status    plan  plan_id",
        `${active}  active    Team  ${team}`,
        `${pastDue}  past_due  Pro   ${pro}`,
        "",
      ].join("\n"),
      stderr: "",
    });

    expect(await cli.json("customers", "entitlements", who)).toEqual({
      customer_id: who,
      entitlements: [
        { feature: "projects", kind: "limit", enabled: true, limit: 25 },
        { feature: "sso", kind: "boolean", enabled: true, limit: null },
      ],
      subscriptions: [active, pastDue],
      as_of: START,
      grace_ends_at: "2026-01-20T09:00:00.000Z",
    });
  });

  it("shows an unlimited limit, and a customer granted nothing", async () => {
    const unlimited = await plan("Unlimited", [["projects", "--unlimited"]]);
    const who = await customer();
    const active = await subscription(who, unlimited, "active");
    const shown = await cli.billing("customers", "entitlements", who);
    expect(shown.stdout).toContain(`projects  limit  unlimited  ${active}\n`);

    const none = await customer();
    expect((await cli.billing("customers", "entitlements", none)).stdout).toBe(
      [`customer_id    ${none}`, `as_of          ${START}`, "grace_ends_at  -", "", "(none)", ""].join("\n"),
    );
  });

  it("says so for an unknown customer, and refuses what is not an id", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(await cli.billing("customers", "entitlements", unknown)).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: no customer with id ${unknown}\n`,
    });
    const bad = await cli.billing("customers", "entitlements", "nope");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("expected an id (a uuid)");
  });
});
