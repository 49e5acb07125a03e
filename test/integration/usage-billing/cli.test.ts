import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { type InProcessCli, inProcessCli } from "../../support/in-process-cli.js";

/**
 * `billing plans usage-prices set|unset|list|threshold`, run in-process on a fresh database (no gateway):
 * prices set and replaced, a bad field named by its option, a recurring plan refused.
 */

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
    "usage-prices",
  );
});

afterAll(async () => {
  await database?.drop();
  await cli?.close();
});

const plan = (...args: string[]) =>
  cli.json<{ id: string }>(
    "plans",
    "create",
    "--currency",
    "QAR",
    "--interval",
    "month",
    "--amount",
    "100",
    ...args,
  );

describe("billing plans usage-prices", () => {
  it("sets, replaces, lists and unsets a plan's usage prices", async () => {
    const metered = await plan("--name", "Metered", "--billing-mode", "autosave");
    await cli.json("meters", "create", "--code", "api_calls", "--name", "API calls", "--aggregation", "sum");
    await cli.json(
      "meters",
      "create",
      "--code",
      "seats_seen",
      "--name",
      "Seats",
      "--aggregation",
      "unique_count",
    );

    const set = await cli.json("plans", "usage-prices", "set", metered.id, "api_calls", "--amount", "0.05");
    expect(set).toMatchObject({
      meter: "api_calls",
      price_model: "per_unit",
      amount: "0.05",
      amount_minor: 5,
    });
    const tiered = await cli.json(
      ...["plans", "usage-prices", "set", metered.id, "seats_seen", "--price-model", "tiered"],
      ...["--tier", "5:0", "--tier", "inf:2.00"],
    );
    expect(tiered).toMatchObject({
      price_model: "tiered",
      tiers: [
        { up_to: 5, unit_amount: "0.00", flat_amount: "0.00" },
        { up_to: null, unit_amount: "2.00", flat_amount: "0.00" },
      ],
    });
    await cli.json("plans", "usage-prices", "set", metered.id, "api_calls", "--amount", "0.04");

    const listed = await cli.json<{ data: { meter: string; amount_minor: number }[] }>(
      "plans",
      "usage-prices",
      "list",
      metered.id,
    );
    expect(listed.data.map((price) => [price.meter, price.amount_minor])).toEqual([
      ["api_calls", 4],
      ["seats_seen", 0],
    ]);
    const table = await cli.billing("plans", "usage-prices", "list", metered.id);
    expect(table.stdout).toMatch(/api_calls\s+API calls\s+per_unit\s+0\.04\s+QAR/);

    expect(await cli.json("plans", "usage-prices", "unset", metered.id, "seats_seen")).toMatchObject({
      meter: "seats_seen",
    });
    const again = await cli.billing("plans", "usage-prices", "unset", metered.id, "seats_seen");
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`plan ${metered.id} does not price meter seats_seen`);
  });

  it("names a bad field by its option, and refuses a recurring plan", async () => {
    const metered = await plan("--name", "Metered 2", "--billing-mode", "autosave");
    const decimals = await cli.billing(
      "plans",
      "usage-prices",
      "set",
      metered.id,
      "api_calls",
      "--amount",
      "0.055",
    );
    expect(decimals.code).toBe(2);
    expect(decimals.stderr).toContain('--amount: "0.055" has more than 2 decimal place(s) allowed for QAR');
    const missing = await cli.billing(
      "plans",
      "usage-prices",
      "set",
      metered.id,
      "api_calls",
      "--price-model",
      "package",
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--amount");
    expect(missing.stderr).toContain("--package-size");

    const fixed = await plan("--name", "Fixed");
    const refused = await cli.billing(
      "plans",
      "usage-prices",
      "set",
      fixed.id,
      "api_calls",
      "--amount",
      "0.05",
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      "usage varies the amount; a recurring card token is charged the fixed amount it was enrolled for; use billing_mode autosave or payment links",
    );
  });

  it("sets and clears a plan's spending threshold, the amount named when it is bad", async () => {
    const metered = await plan("--name", "Metered 3", "--billing-mode", "autosave");
    expect(await cli.json("plans", "usage-prices", "threshold", metered.id, "500.00")).toEqual({
      plan_id: metered.id,
      usage_threshold: "500.00",
      currency: "QAR",
    });
    expect(await cli.json("plans", "usage-prices", "threshold", metered.id, "--clear")).toEqual({
      plan_id: metered.id,
      usage_threshold: null,
      currency: "QAR",
    });
    const decimals = await cli.billing("plans", "usage-prices", "threshold", metered.id, "1.234");
    expect(decimals.code).toBe(2);
    expect(decimals.stderr).toContain('AMOUNT: "1.234" has more than 2 decimal place(s) allowed for QAR');
    const neither = await cli.billing("plans", "usage-prices", "threshold", metered.id);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("give the threshold's amount, or --clear to remove it");
    const zero = await cli.billing("plans", "usage-prices", "threshold", metered.id, "0");
    expect(zero.stderr).toContain("AMOUNT: must be above zero");
  });
});
