import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plans } from "../../../src/db/schema/index.js";
import { seedSubscription } from "../../db/fixtures.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { type InProcessCli, inProcessCli } from "../../support/in-process-cli.js";

/**
 * `billing coupons …` and a subscription's discount from the CLI, run in-process on a fresh
 * database (these commands need no gateway): --json output, and refusals named by option.
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
    "coupons",
  );
});

afterAll(async () => {
  await database?.drop();
  await cli?.close();
});

describe("billing coupons", () => {
  it("creates, lists, shows and archives coupons", async () => {
    const created = await cli.json(
      "coupons",
      "create",
      "--code",
      "spring",
      "--percent-off",
      "10",
      "--duration",
      "once",
    );
    expect(created).toMatchObject({ code: "SPRING", percent_off: 10, amount_off: null, redemptions: 0 });
    const fixed = await cli.json(
      "coupons",
      "create",
      ...["--code", "FIVE", "--amount-off", "5", "--currency", "qar"],
      ...["--duration", "repeating", "--duration-periods", "3", "--max-redemptions", "10"],
    );
    expect(fixed).toMatchObject({
      amount_off: "5.00",
      amount_off_minor: 500,
      currency: "QAR",
      duration_periods: 3,
    });

    expect((await cli.json("coupons", "show", "spring")).id).toBe(created.id);
    const listed = await cli.json<{ data: { code: string }[] }>("coupons", "list");
    expect(listed.data.map((c) => c.code)).toEqual(["SPRING", "FIVE"]);
    expect(await cli.json("coupons", "archive", "SPRING")).toMatchObject({ code: "SPRING", archived: true });
    expect((await cli.json<{ data: unknown[] }>("coupons", "list")).data).toHaveLength(1);
    expect((await cli.json<{ data: unknown[] }>("coupons", "list", "--archived")).data).toHaveLength(2);
  });

  it("names the option to fix", async () => {
    // Usage errors exit 2 naming the option; a refusal of the service exits 1.
    const refused: [string[], number, string][] = [
      [["--code", "REP", "--percent-off", "10", "--duration", "repeating"], 2, "--duration-periods"],
      [["--code", "P", "--percent-off", "100", "--duration", "once"], 2, "--percent-off"],
      [["--code", "five", "--percent-off", "1", "--duration", "once"], 1, "already exists"],
    ];
    for (const [args, code, says] of refused) {
      const run = await cli.billing("coupons", "create", ...args);
      expect([run.code, run.stderr]).toEqual([code, expect.stringContaining(says)]);
    }
    expect((await cli.billing("coupons", "show", "NOPE")).code).toBe(1);
  });

  it("applies a coupon to a subscription and removes its discount", async () => {
    const { plan, subscription } = await seedSubscription(database.db);
    const refused = await cli.billing("subscriptions", "apply-coupon", subscription.id, "--coupon", "FIVE");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("recurring card token");

    await database.db.update(plans).set({ billingMode: "autosave" }).where(eq(plans.id, plan.id));
    const applied = await cli.json("subscriptions", "apply-coupon", subscription.id, "--coupon", "five");
    // The subscription as the merchant API shows it: the coupon's amount as money.
    expect(applied.discount).toMatchObject({
      coupon_code: "FIVE",
      amount_off: { amount: "5.00", amount_minor: 500, currency: "QAR" },
      periods_applied: 0,
    });
    expect((await cli.json("subscriptions", "show", subscription.id)).discount).toMatchObject({
      coupon_code: "FIVE",
    });

    const removed = await cli.json("subscriptions", "remove-discount", subscription.id);
    expect(removed.discount).toBeNull();
    const again = await cli.billing("subscriptions", "remove-discount", subscription.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("has no discount");
  });
});
