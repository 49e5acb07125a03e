import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { type InProcessCli, inProcessCli } from "../../support/in-process-cli.js";

/**
 * `billing plans create|list` with price models, run in-process on a fresh database (no gateway
 * needed): --tier, --package-size and --price-model, and refusals named by the option (a bad tier
 * by its place among the --tier options).
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
    "plans",
  );
});

afterAll(async () => {
  await database?.drop();
  await cli?.close();
});

const create = (...args: string[]) =>
  ["plans", "create", "--currency", "QAR", "--interval", "month", ...args] as const;

describe("billing plans with price models", () => {
  it("creates tiered, volume, package and flat plans, and lists their price models", async () => {
    const tiered = await cli.json(
      ...create("--name", "Seats", "--price-model", "tiered", "--billing-mode", "autosave"),
      ...["--tier", "10:5.00", "--tier", "50:4.50:10", "--tier", "inf:0"],
    );
    expect(tiered).toMatchObject({
      price_model: "tiered",
      amount: "0.00",
      amount_minor: 0,
      tiers: [
        { up_to: 10, unit_amount: "5.00", flat_amount: "0.00" },
        { up_to: 50, unit_amount: "4.50", flat_amount: "10.00" },
        { up_to: null, unit_amount: "0.00", flat_amount: "0.00" },
      ],
      package_size: null,
      billing_mode: "autosave",
    });
    const volume = await cli.json(
      ...create("--name", "Calls", "--price-model", "volume", "--billing-mode", "autosave"),
      ...["--tier", "100:1.25", "--tier", "inf:0.99:5"],
    );
    expect(volume).toMatchObject({
      price_model: "volume",
      tiers: [
        { up_to: 100, unit_amount: "1.25", flat_amount: "0.00" },
        { up_to: null, unit_amount: "0.99", flat_amount: "5.00" },
      ],
    });
    const packaged = await cli.json(
      ...create("--name", "Boxes", "--price-model", "package", "--billing-mode", "autosave"),
      ...["--amount", "15", "--package-size", "10"],
    );
    expect(packaged).toMatchObject({
      price_model: "package",
      amount: "15.00",
      amount_minor: 1_500,
      tiers: null,
      package_size: 10,
    });
    const flat = await cli.json(...create("--name", "Gold", "--amount", "100"));
    expect(flat).toMatchObject({
      price_model: "flat",
      amount_minor: 10_000,
      tiers: null,
      package_size: null,
    });

    const listed = await cli.json<{ data: { id: string; price_model: string }[] }>("plans", "list");
    expect(listed.data.map((plan) => [plan.id, plan.price_model])).toEqual([
      [tiered.id, "tiered"],
      [volume.id, "volume"],
      [packaged.id, "package"],
      [flat.id, "flat"],
    ]);
    const table = await cli.billing("plans", "list");
    expect(table.code).toBe(0);
    expect(table.stdout.split("\n")[0]).toMatch(/\bprice_model\b/);
    expect(table.stdout).toMatch(/Seats\s+tiered\s+0\.00/);
  });

  it("names a bad tier by its place among the --tier options, every problem at once", async () => {
    const run = await cli.billing(
      ...create("--name", "Bad", "--price-model", "tiered", "--billing-mode", "autosave"),
      ...["--tier", "10:10.505", "--tier", "10:1", "--tier", "20:x"],
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      '--tier #1 UNIT_AMOUNT: "10.505" has more than 2 decimal place(s) allowed for QAR',
    );
    expect(run.stderr).toContain("--tier #2 UP_TO: must be a whole number above 10");
    expect(run.stderr).toContain('--tier #3 UNIT_AMOUNT: "x" is not a decimal number');
    expect(run.stderr).toContain("--tier #3 UP_TO: must be null: the last tier is open");
  });

  it("refuses a malformed --tier while reading the command line", async () => {
    for (const value of ["10", "ten:1.00", "10:1:2:3", "-5:1"]) {
      const run = await cli.billing(...create("--name", "Bad", "--price-model", "volume", "--tier", value));
      expect(run.code, value).toBe(2);
      expect(run.stderr, value).toMatch(/--tier/);
    }
  });

  it("names the options a price model needs or refuses", async () => {
    const recurring = await cli.billing(
      ...create("--name", "Bad", "--price-model", "per_unit", "--amount", "1"),
    );
    expect(recurring.code).toBe(2);
    expect(recurring.stderr).toContain('--price-model: per_unit needs billing_mode "autosave"');
    const noTiers = await cli.billing(
      ...create("--name", "Bad", "--price-model", "volume", "--billing-mode", "autosave"),
    );
    expect(noTiers.stderr).toContain("--tier: must be given with price_model volume");
    const noAmount = await cli.billing(...create("--name", "Bad"));
    expect(noAmount.stderr).toContain(
      "--amount: must be given with price_model flat (the price of one period)",
    );
    const noSize = await cli.billing(
      ...create("--name", "Bad", "--price-model", "package", "--billing-mode", "autosave", "--amount", "1"),
    );
    expect(noSize.stderr).toContain("--package-size: must be given with price_model package");
    const stray = await cli.billing(
      ...create("--name", "Bad", "--amount", "1", "--tier", "inf:1", "--package-size", "3"),
    );
    expect(stray.stderr).toContain("--tier: must not be given with price_model flat");
    expect(stray.stderr).toContain("--package-size: must not be given with price_model flat");
    expect(
      (await cli.json<{ data: { name: string }[] }>("plans", "list")).data.map((p) => p.name),
    ).not.toContain("Bad");
  });
});
