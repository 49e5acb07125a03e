import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/index.js";
import { plans } from "../../../src/db/schema/index.js";
import { seedSubscription } from "../../db/fixtures.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";

/**
 * `billing coupons …` and a subscription's discount from the CLI, run in-process on a fresh
 * database (these commands need no gateway): --json output, and refusals named by option.
 */

let database: TestDatabase;
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "billing-coupons-"));
  env = {
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    BILLING_DATA_DIR: dataDir,
    BILLING_CLOCK: "controllable",
    BILLING_CLOCK_START: "2026-01-15T09:00:00.000Z",
    LOG_LEVEL: "silent",
  };
});

afterAll(async () => {
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function billing(...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const code = await runCli(args, { stdout, stderr, env });
  return { code, stdout: stdout.read()?.toString() ?? "", stderr: stderr.read()?.toString() ?? "" };
}

async function json<T = Record<string, unknown>>(...args: string[]): Promise<T> {
  const run = await billing(...args, "--json");
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

describe("billing coupons", () => {
  it("creates, lists, shows and archives coupons", async () => {
    const created = await json(
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
    const fixed = await json(
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

    expect((await json("coupons", "show", "spring")).id).toBe(created.id);
    const listed = await json<{ data: { code: string }[] }>("coupons", "list");
    expect(listed.data.map((c) => c.code)).toEqual(["SPRING", "FIVE"]);
    expect(await json("coupons", "archive", "SPRING")).toMatchObject({ code: "SPRING", archived: true });
    expect((await json<{ data: unknown[] }>("coupons", "list")).data).toHaveLength(1);
    expect((await json<{ data: unknown[] }>("coupons", "list", "--archived")).data).toHaveLength(2);
  });

  it("names the option to fix", async () => {
    // Usage errors exit 2 naming the option; a refusal of the service exits 1.
    const refused: [string[], number, string][] = [
      [["--code", "REP", "--percent-off", "10", "--duration", "repeating"], 2, "--duration-periods"],
      [["--code", "P", "--percent-off", "100", "--duration", "once"], 2, "--percent-off"],
      [["--code", "five", "--percent-off", "1", "--duration", "once"], 1, "already exists"],
    ];
    for (const [args, code, says] of refused) {
      const run = await billing("coupons", "create", ...args);
      expect([run.code, run.stderr]).toEqual([code, expect.stringContaining(says)]);
    }
    expect((await billing("coupons", "show", "NOPE")).code).toBe(1);
  });

  it("applies a coupon to a subscription and removes its discount", async () => {
    const { plan, subscription } = await seedSubscription(database.db);
    const refused = await billing("subscriptions", "apply-coupon", subscription.id, "--coupon", "FIVE");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("recurring card token");

    await database.db.update(plans).set({ billingMode: "autosave" }).where(eq(plans.id, plan.id));
    const applied = await json("subscriptions", "apply-coupon", subscription.id, "--coupon", "five");
    expect(applied.discount).toMatchObject({ coupon_code: "FIVE", amount_off: "5.00", periods_applied: 0 });
    expect((await json("subscriptions", "show", subscription.id)).discount).toMatchObject({
      coupon_code: "FIVE",
    });

    const removed = await json("subscriptions", "remove-discount", subscription.id);
    expect(removed.discount).toBeNull();
    const again = await billing("subscriptions", "remove-discount", subscription.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("has no discount");
  });
});
