import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { jsonOf, runBilling } from "./support.js";

/** `billing portal-link`: a customer named by id or e-mail gets a single-use portal link. */
const START = "2026-01-15T09:00:00.000Z";
let database: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createTestDatabase();
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    BILLING_CLOCK: "controllable",
    BILLING_CLOCK_START: START,
    PUBLIC_URL: "https://billing.example.qa/",
    PORTAL_LINK_MINUTES: "15",
    LOG_LEVEL: "silent",
  };
}, 60_000);
afterAll(() => database?.drop());

it("prints a link for a customer named by e-mail or id, expiring PORTAL_LINK_MINUTES later on the billing clock", async () => {
  const customer = jsonOf<{ id: string }>(
    await runBilling(["customers", "create", "--email", "Layla@Example.qa", "--json"], env),
  );
  for (const named of ["layla@example.qa", customer.id]) {
    const link = jsonOf<{ customer_id: string; url: string; expires_at: string }>(
      await runBilling(["portal-link", "--customer", named, "--json"], env),
    );
    expect(link.customer_id).toBe(customer.id);
    expect(link.url).toMatch(/^https:\/\/billing\.example\.qa\/portal\/open\?token=[A-Za-z0-9_-]{43}$/);
    expect(link.expires_at).toBe("2026-01-15T09:15:00.000Z");
  }
  const rows = await database.sql`select customer_id, created_by from portal_links`;
  expect(rows.map((row) => [row.customer_id, row.created_by])).toEqual([
    [customer.id, "cli"],
    [customer.id, "cli"],
  ]);
});

it("names an unknown customer and exits 1", async () => {
  const run = await runBilling(["portal-link", "--customer", "nobody@example.qa", "--json"], env);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('--customer: no customer with the id or e-mail "nobody@example.qa"');
});
