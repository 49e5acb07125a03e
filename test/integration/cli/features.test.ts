import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCustomerAndPlan } from "../../db/fixtures.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { type InProcessCli, inProcessCli } from "../../support/in-process-cli.js";

/** `billing features …` and `billing plans features …`, in-process on a fresh database. */

let database: TestDatabase;
let cli: InProcessCli;

beforeAll(async () => {
  database = await createTestDatabase();
  cli = await inProcessCli(
    {
      DATABASE_URL: database.url,
      BILLING_CLOCK: "controllable",
      BILLING_CLOCK_START: "2026-01-15T09:00:00.000Z",
    },
    "features",
  );
});

afterAll(async () => {
  await database?.drop();
  await cli?.close();
});

describe("billing features", () => {
  it("creates, lists and archives features", async () => {
    const created = await cli.json(
      "features",
      "create",
      "--code",
      "sso",
      "--name",
      "Single sign-on",
      "--kind",
      "boolean",
    );
    expect(created).toMatchObject({ code: "sso", name: "Single sign-on", kind: "boolean", archived: false });
    await cli.json("features", "create", "--code", "projects", "--name", "Projects", "--kind", "limit");

    const listed = await cli.json<{ data: { code: string }[] }>("features", "list");
    expect(listed.data.map((f) => f.code)).toEqual(["sso", "projects"]);

    expect(await cli.json("features", "archive", "projects")).toMatchObject({
      code: "projects",
      archived: true,
    });
    expect(
      (await cli.json<{ data: { code: string }[] }>("features", "list")).data.map((f) => f.code),
    ).toEqual(["sso"]);
    expect((await cli.json<{ data: unknown[] }>("features", "list", "--archived")).data).toHaveLength(2);
  });

  it("refuses a bad code naming --code, a taken one, and an unknown one", async () => {
    const bad = await cli.billing(
      "features",
      "create",
      "--code",
      "Not OK",
      "--name",
      "x",
      "--kind",
      "boolean",
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--code: must be 1-64 of a-z");

    await cli.json("features", "create", "--code", "taken", "--name", "x", "--kind", "boolean");
    const taken = await cli.billing(
      "features",
      "create",
      "--code",
      "taken",
      "--name",
      "x",
      "--kind",
      "boolean",
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("a feature with code taken already exists");

    expect((await cli.billing("features", "archive", "nope")).stderr).toContain("no feature nope");
  });
});

describe("billing plans features", () => {
  it("sets, lists and unsets a plan's features, refusing a limit on a switch and none on a limit", async () => {
    const { plan } = await seedCustomerAndPlan(database.db);
    await cli.json("features", "create", "--code", "seats", "--name", "Seats", "--kind", "limit");

    expect(await cli.json("plans", "features", "set", plan.id, "seats", "--limit", "5")).toMatchObject({
      plan_id: plan.id,
      feature: "seats",
      limit: 5,
      unlimited: false,
      changed: true,
    });
    expect(await cli.json("plans", "features", "set", plan.id, "seats", "--unlimited")).toMatchObject({
      limit: null,
      unlimited: true,
    });
    expect(await cli.json("plans", "features", "set", plan.id, "sso")).toMatchObject({
      feature: "sso",
      limit: null,
    });

    const onSwitch = await cli.billing("plans", "features", "set", plan.id, "sso", "--limit", "3");
    expect(onSwitch.code).toBe(2);
    expect(onSwitch.stderr).toContain("--limit: feature sso is a switch (kind boolean): it takes no limit");
    const without = await cli.billing("plans", "features", "set", plan.id, "seats");
    expect(without.code).toBe(2);
    expect(without.stderr).toContain("--limit: feature seats is a limit: give --limit N or --unlimited");
    const both = await cli.billing(
      "plans",
      "features",
      "set",
      plan.id,
      "seats",
      "--limit",
      "3",
      "--unlimited",
    );
    expect(both.stderr).toContain("either --limit N or --unlimited");

    const listed = await cli.json<{ data: { feature: string }[] }>("plans", "features", "list", plan.id);
    expect(listed.data.map((f) => f.feature)).toEqual(["seats", "sso"]);

    expect(await cli.json("plans", "features", "unset", plan.id, "sso")).toEqual({
      plan_id: plan.id,
      feature: "sso",
      removed: true,
    });
    const again = await cli.billing("plans", "features", "unset", plan.id, "sso");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`plan ${plan.id} does not include feature sso`);
  });
});
