import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscriptionAddons } from "../../../src/db/schema/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { harnessCliEnv, type InProcessCli, inProcessCli } from "../../support/in-process-cli.js";
import { createSubscription } from "../charging/fixtures.js";

/**
 * Add-ons from the CLI, in-process against an engine harness: the catalogue (each option of the
 * price, bad fields named by their options, archiving) and a subscription's add-ons (set, list,
 * remove, and the refusals printed with exit 1).
 */

const START = "2026-01-15T09:00:00.000Z";
let h: EngineHarness;
let cli: InProcessCli;

beforeAll(async () => {
  h = await createEngineHarness({ start: START });
  cli = await inProcessCli(harnessCliEnv(h, START), "addons");
}, 60_000);

afterAll(async () => {
  await h?.close();
  await cli?.close();
});

const codes = async (...args: string[]) =>
  (await cli.json<{ data: { code: string }[] }>("addons", "list", ...args)).data.map((addon) => addon.code);

describe("billing addons", () => {
  it("creates add-ons with each kind of price, lists and archives them", async () => {
    const support = await cli.json(
      "addons",
      "create",
      "--code",
      "support",
      "--name",
      "Support",
      "--amount",
      "25.00",
      "--currency",
      "qar",
    );
    expect(support).toMatchObject({
      code: "support",
      price_model: "flat",
      amount: "25.00",
      amount_minor: 2500,
      currency: "QAR",
    });

    const storage = await cli.json(
      "addons",
      "create",
      "--code",
      "storage",
      "--name",
      "Storage",
      "--currency",
      "QAR",
      "--price-model",
      "tiered",
      "--tier",
      "10:2.00",
      "--tier",
      "inf:1.00",
    );
    expect(storage).toMatchObject({
      price_model: "tiered",
      amount_minor: 0,
      tiers: [
        { up_to: 10, unit_amount: "2.00", flat_amount: "0.00" },
        { up_to: null, unit_amount: "1.00", flat_amount: "0.00" },
      ],
    });

    const sms = await cli.json(
      "addons",
      "create",
      "--code",
      "sms",
      "--name",
      "SMS",
      "--currency",
      "QAR",
      "--price-model",
      "package",
      "--amount",
      "5.00",
      "--package-size",
      "100",
    );
    expect(sms).toMatchObject({ price_model: "package", package_size: 100 });

    expect(await codes()).toEqual(["support", "storage", "sms"]);
    const archived = await cli.json("addons", "archive", "sms");
    expect(archived).toMatchObject({ code: "sms", archived: true });
    expect(await codes()).toEqual(["support", "storage"]);
    expect(await codes("--archived")).toEqual(["support", "storage", "sms"]);

    const table = await cli.billing("addons", "list");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("storage");
  });

  it("names bad fields by their options, and exits 2", async () => {
    const run = await cli.billing(
      "addons",
      "create",
      "--code",
      "Bad",
      "--name",
      "Bad",
      "--currency",
      "QAR",
      "--price-model",
      "tiered",
      "--amount",
      "1.00",
      "--tier",
      "10:1.001",
      "--tier",
      "inf:1.00",
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--code: must be");
    expect(run.stderr).toContain("--amount: must not be given with price_model tiered");
    expect(run.stderr).toContain("--tier #1 UNIT_AMOUNT:");

    const taken = await cli.billing(
      "addons",
      "create",
      "--code",
      "support",
      "--name",
      "S",
      "--amount",
      "1",
      "--currency",
      "QAR",
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("already exists");
    expect((await cli.billing("addons", "archive", "nothing")).stderr).toContain("no add-on nothing");
  });
});

describe("billing subscriptions addons", () => {
  it("sets, lists and removes a subscription's add-ons", async () => {
    const { subscriptionId: id } = await createSubscription(h, { kind: "autosave" });
    const set = await cli.json("subscriptions", "addons", "set", id, "storage", "--quantity", "12");
    expect(set).toMatchObject({
      code: "storage",
      quantity: 12,
      period_amount: "22.00",
      period_amount_minor: 2200,
      change: "added",
      from_quantity: null,
    });
    const changed = await cli.json("subscriptions", "addons", "set", id, "storage", "--quantity", "3");
    expect(changed).toMatchObject({
      quantity: 3,
      period_amount: "6.00",
      change: "updated",
      from_quantity: 12,
    });

    const listed = await cli.json<{ data: { code: string; quantity: number }[] }>(
      "subscriptions",
      "addons",
      "list",
      id,
    );
    expect(listed.data).toMatchObject([{ code: "storage", quantity: 3 }]);

    const removed = await cli.json("subscriptions", "addons", "remove", id, "storage");
    expect(removed).toMatchObject({ code: "storage", quantity: 3 });
    expect(removed.removed_at).not.toBeNull();
    expect((await cli.json<{ data: unknown[] }>("subscriptions", "addons", "list", id)).data).toEqual([]);

    const rows = await h.ctx.db
      .select()
      .from(subscriptionAddons)
      .where(eq(subscriptionAddons.subscriptionId, id));
    expect(rows.map((row) => row.quantity).sort()).toEqual([12, 3].sort());
    expect(rows.every((row) => row.actor === "cli" && row.removedAt !== null)).toBe(true);
  });

  it("prints the refusals and exits 1: an archived add-on, a recurring card token", async () => {
    const { subscriptionId: autosave } = await createSubscription(h, { kind: "autosave" });
    const archived = await cli.billing("subscriptions", "addons", "set", autosave, "sms", "--quantity", "1");
    expect(archived.code).toBe(1);
    expect(archived.stderr).toContain("add-on sms is archived");

    const { subscriptionId: recurring } = await createSubscription(h, { kind: "recurring" });
    const refused = await cli.billing(
      "subscriptions",
      "addons",
      "set",
      recurring,
      "support",
      "--quantity",
      "1",
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("recurring card token is charged the fixed amount it was enrolled for");

    const missing = await cli.billing("subscriptions", "addons", "remove", autosave, "support");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`subscription ${autosave} has no add-on support`);

    const zero = await cli.billing("subscriptions", "addons", "set", autosave, "support", "--quantity", "0");
    expect(zero.code).toBe(2);
  });
});
