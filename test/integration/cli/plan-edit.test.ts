import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { harnessCliEnv, type InProcessCli, inProcessCli } from "../../support/in-process-cli.js";

/**
 * Showing and editing the catalogue from the CLI, in-process against an engine harness (enrolling
 * needs its simulator): `plans show|update|archive|unarchive`, `plans list` with its billing mode
 * and, with --archived, which plans are archived; `customers show` and `customers update --name
 * --phone`; `coupons list --archived` saying which coupons are archived.
 */

const START = "2026-01-15T09:00:00.000Z";
let h: EngineHarness;
let cli: InProcessCli;

beforeAll(async () => {
  h = await createEngineHarness({ start: START });
  cli = await inProcessCli(harnessCliEnv(h, START), "plan-edit");
}, 60_000);

afterAll(async () => {
  await h?.close();
  await cli?.close();
});

const createPlan = (name: string, ...args: string[]) =>
  cli.json<{ id: string }>(
    ...["plans", "create", "--name", name, "--amount", "100", "--currency", "QAR", "--interval", "month"],
    ...args,
  );

describe("billing plans show, update, archive, unarchive", () => {
  it("shows a plan, then changes what may change and prints it", async () => {
    const { id } = await createPlan("Gold", "--trial-days", "14");
    const shown = await cli.json("plans", "show", id);
    expect(shown).toMatchObject({
      id,
      name: "Gold",
      amount: "100.00",
      amount_minor: 10_000,
      currency: "QAR",
      trial_days: 14,
      product_id: null,
      billing_mode: "recurring",
      collection_method: "charge_automatically",
      trial_without_card: false,
      usage_threshold: null,
      archived: false,
      archived_at: null,
    });

    const updated = await cli.json(
      ...["plans", "update", id, "--name", "Gold 2026", "--trial-days", "7", "--product-id", "prod_7"],
      ...["--collection-method", "send_payment_link", "--trial-without-card"],
    );
    expect(updated).toEqual({
      ...shown,
      name: "Gold 2026",
      trial_days: 7,
      product_id: "prod_7",
      collection_method: "send_payment_link",
      trial_without_card: true,
    });
    const cleared = await cli.json("plans", "update", id, "--no-product-id", "--no-trial-without-card");
    expect(cleared).toMatchObject({ product_id: null, trial_without_card: false, trial_days: 7 });

    const text = await cli.billing("plans", "show", id);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^name +Gold 2026$/m);
    expect(text.stdout).toMatch(/^billing_mode +recurring$/m);
  });

  it("names the option to fix, and exits 1 for an unknown plan", async () => {
    const { id } = await createPlan("Cardless", "--trial-days", "3", "--trial-without-card");
    const ending = await cli.billing("plans", "update", id, "--trial-days", "0");
    expect([ending.code, ending.stdout]).toEqual([2, ""]);
    expect(ending.stderr).toBe(
      "error: --trial-days: must be at least 1 while the plan's trial_without_card is true; send trial_without_card: false with it\n",
    );
    const empty = await cli.billing("plans", "update", id, "--name", " ");
    expect(empty.stderr).toBe("error: --name: must not be empty\n");
    const nothing = await cli.billing("plans", "update", id);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("error: nothing to change: give --name, --trial-days");
    // The price is not an option of update at all.
    expect((await cli.billing("plans", "update", id, "--amount", "5")).code).toBe(2);

    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const args of [["show"], ["update", "--name", "X"], ["archive"], ["unarchive"]] as const) {
      const [sub, ...rest] = args;
      const run = await cli.billing("plans", sub, unknown, ...rest);
      expect([run.code, run.stderr], sub).toEqual([1, `error: no plan with id ${unknown}\n`]);
    }
  });

  it("archives a plan: enrolment refused, listed with --archived and said so; unarchiving lets it enrol", async () => {
    const { id } = await createPlan("Seasonal");
    const customer = await cli.json<{ id: string }>("customers", "create", "--email", "season@example.qa");

    const archived = await cli.json("plans", "archive", id);
    expect(archived).toMatchObject({ id, archived: true, archived_at: START });
    const refused = await cli.billing("enroll", "--customer", customer.id, "--plan", id);
    expect([refused.code, refused.stdout]).toEqual([1, ""]);
    expect(refused.stderr).toBe(`error: plan ${id} is archived\n`);

    const live = await cli.json<{ data: { id: string }[] }>("plans", "list");
    expect(live.data.map((plan) => plan.id)).not.toContain(id);
    const all = await cli.json<{ data: { id: string; archived_at: string | null }[] }>(
      "plans",
      "list",
      "--archived",
    );
    expect(all.data.find((plan) => plan.id === id)?.archived_at).toBe(START);
    const table = await cli.billing("plans", "list", "--archived");
    const [header, ...rows] = table.stdout.trim().split("\n");
    expect(header?.split(/\s+/)).toEqual([
      "id",
      "name",
      "price_model",
      "amount",
      "currency",
      "interval",
      "interval_count",
      "trial_days",
      "billing_mode",
      "collection_method",
      "trial_without_card",
      "archived_at",
    ]);
    expect(rows.find((row) => row.startsWith(id))).toMatch(
      /Seasonal +flat +100\.00 +QAR .* 2026-01-15T09:00:00\.000Z$/,
    );
    // A plan that is not archived shows no archiving time.
    expect(rows.find((row) => !row.startsWith(id))).toMatch(/ recurring +\w+ +(true|false) +-$/);
    expect((await cli.billing("plans", "list")).stdout.split("\n")[0]).not.toContain("archived_at");

    expect(await cli.json("plans", "unarchive", id)).toMatchObject({ archived: false, archived_at: null });
    const enrolled = await cli.json("enroll", "--customer", customer.id, "--plan", id);
    expect(enrolled).toMatchObject({ status: "pending_enrollment" });
  });
});

describe("billing customers show and update", () => {
  it("shows a customer, and changes its name and phone", async () => {
    const { id } = await cli.json<{ id: string }>("customers", "create", "--email", "noor@example.qa");
    expect(await cli.json("customers", "show", id)).toEqual({
      id,
      email: "noor@example.qa",
      name: null,
      phone: null,
      language: "en",
      time_zone: null,
      message_opt_outs: [],
      created_at: expect.any(String),
    });
    const updated = await cli.json("customers", "update", id, "--name", "Noor", "--phone", "+974 5555 1234");
    expect(updated).toMatchObject({ name: "Noor", phone: "+97455551234" });
    const bad = await cli.billing("customers", "update", id, "--phone", "5555");
    expect([bad.code, bad.stderr]).toEqual([
      2,
      "error: --phone: must include the country code, e.g. +97455555555\n",
    ]);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await cli.billing("customers", "show", unknown)).stderr).toBe(
      `error: no customer with id ${unknown}\n`,
    );
  });
});

describe("billing coupons list --archived", () => {
  it("says which coupons are archived, and since when", async () => {
    await cli.json("coupons", "create", "--code", "LIVE", "--percent-off", "10", "--duration", "once");
    await cli.json("coupons", "create", "--code", "OLD", "--percent-off", "20", "--duration", "once");
    await cli.json("coupons", "archive", "OLD");
    const listed = await cli.json<{
      data: { code: string; archived: boolean; archived_at: string | null }[];
    }>("coupons", "list", "--archived");
    expect(listed.data.map((c) => [c.code, c.archived, c.archived_at])).toEqual([
      ["LIVE", false, null],
      ["OLD", true, START],
    ]);
    const table = await cli.billing("coupons", "list", "--archived");
    const lines = table.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/ expires_at +archived_at$/);
    expect(lines.find((line) => line.includes(" LIVE "))).toMatch(/ -$/);
    expect(lines.find((line) => line.includes(" OLD "))).toMatch(/ 2026-01-15T09:00:00\.000Z$/);
  });
});
