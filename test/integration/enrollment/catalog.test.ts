import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControllableClock } from "../../../src/clock/index.js";
import { loadConfig } from "../../../src/config/index.js";
import {
  CustomerInputError,
  createCustomer,
  findCustomerByEmail,
  getCustomer,
  listCustomers,
} from "../../../src/customers/index.js";
import { events } from "../../../src/db/schema/index.js";
import { createPlan, getPlan, listPlans, PlanInputError } from "../../../src/plans/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";

let database: TestDatabase;
const clock = new ControllableClock("2026-01-15T09:00:00Z");
const config = loadConfig({ NODE_ENV: "test" });
const ctx = () => ({ db: database.db, clock, config });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe("plans", () => {
  it("stores a validated plan with its event", async () => {
    const plan = await createPlan(
      ctx(),
      {
        name: " Gold ",
        amount: "150.5",
        currency: "QAR",
        interval: "month",
        interval_count: 3,
        trial_days: 7,
      },
      { actor: "cli" },
    );
    expect(plan).toMatchObject({
      name: "Gold",
      amount: { minor: 15_050, currency: "QAR" },
      intervalUnit: "month",
      intervalCount: 3,
      trialDays: 7,
      billingMode: "recurring",
      productId: null,
      archivedAt: null,
    });
    expect(await getPlan(ctx(), plan.id)).toEqual(plan);
    const [event] = await database.db.select().from(events).where(eq(events.type, "plan.created"));
    expect(event).toMatchObject({ actor: "cli", data: expect.objectContaining({ plan_id: plan.id }) });
    expect(event?.occurredAt.toISOString()).toBe("2026-01-15T09:00:00.000Z");
  });

  it("names every bad field and writes nothing", async () => {
    const error = await createPlan(ctx(), {
      name: "",
      amount: "1.2345",
      currency: "XXX1",
      interval: "fortnight",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanInputError);
    expect((error as PlanInputError).issues.map((issue) => issue.field).sort()).toEqual([
      "currency",
      "interval",
      "name",
    ]);
    const amount = await createPlan(ctx(), {
      name: "X",
      amount: "10.505",
      currency: "QAR",
      interval: "day",
    }).catch((e: unknown) => e);
    expect((amount as PlanInputError).issues).toEqual([
      { field: "amount", message: expect.stringContaining("10.505") },
    ]);
    expect((await listPlans(ctx())).plans.map((plan) => plan.name)).not.toContain("X");
  });

  it("answers null for an unknown or malformed id", async () => {
    expect(await getPlan(ctx(), "00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await getPlan(ctx(), "nope")).toBeNull();
  });

  it("lists plans oldest first, a page at a time, leaving archived ones out unless asked", async () => {
    const names = ["P1", "P2", "P3", "P4", "P5"];
    for (const name of names)
      await createPlan(ctx(), { name, amount: "1", currency: "QAR", interval: "week" });
    await database.sql`update plans set archived_at = now() where name = 'P3'`;

    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await listPlans(ctx(), { limit: 2, ...(after ? { after } : {}) });
      seen.push(...page.plans.map((plan) => plan.name));
      if (!page.nextCursor) break;
      after = page.nextCursor;
    }
    expect(seen.filter((name) => names.includes(name))).toEqual(["P1", "P2", "P4", "P5"]);
    const all = await listPlans(ctx(), { includeArchived: true, limit: 500 });
    expect(all.plans.map((plan) => plan.name)).toContain("P3");
    await expect(listPlans(ctx(), { limit: 0 })).rejects.toThrow();
  });
});

describe("customers", () => {
  it("creates a customer with a normalised e-mail and phone, with its event", async () => {
    const { customer, created } = await createCustomer(ctx(), {
      email: "  Layla@Example.COM ",
      name: "Layla",
      phone: "+974 5555 5555",
      language: "ar",
    });
    expect(created).toBe(true);
    expect(customer).toMatchObject({ email: "layla@example.com", phone: "+97455555555", language: "ar" });
    expect(await getCustomer(ctx(), customer.id)).toEqual(customer);
    const [event] = await database.db.select().from(events).where(eq(events.customerId, customer.id));
    expect(event?.type).toBe("customer.created");
  });

  it("is idempotent on the e-mail, also when asked twice at once", async () => {
    const first = await createCustomer(ctx(), { email: "omar@example.com", name: "Omar" });
    const again = await createCustomer(ctx(), { email: "OMAR@example.com ", name: "Someone else" });
    expect(again).toEqual({ customer: first.customer, created: false });

    const racing = await Promise.all(
      Array.from({ length: 8 }, () => createCustomer(ctx(), { email: "race@example.com" })),
    );
    expect(racing.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(racing.map((r) => r.customer.id)).size).toBe(1);
    const created = await database.db
      .select()
      .from(events)
      .where(eq(events.customerId, racing[0]!.customer.id));
    expect(created).toHaveLength(1);
  });

  it("names every bad field", async () => {
    const error = await createCustomer(ctx(), {
      email: "not-an-email",
      phone: "5555",
      language: "fr",
      extra: 1,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CustomerInputError);
    expect((error as CustomerInputError).issues.map((issue) => issue.field).sort()).toEqual([
      "",
      "email",
      "language",
      "phone",
    ]);
  });

  it("finds a customer by e-mail in any case, and lists customers by page", async () => {
    const { customer } = await createCustomer(ctx(), { email: "find.me@example.com" });
    expect(await findCustomerByEmail(ctx(), " FIND.ME@example.com")).toEqual(customer);
    expect(await findCustomerByEmail(ctx(), "nobody@example.com")).toBeNull();
    expect(await findCustomerByEmail(ctx(), "garbage")).toBeNull();
    expect(await getCustomer(ctx(), "nope")).toBeNull();

    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await listCustomers(ctx(), { limit: 2, ...(after ? { after } : {}) });
      ids.push(...page.customers.map((c) => c.id));
      if (!page.nextCursor) break;
      after = page.nextCursor;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(customer.id);
    const [{ count } = { count: 0 }] = await database.sql<
      { count: number }[]
    >`select count(*)::int as count from customers`;
    expect(ids).toHaveLength(count);
  });
});
