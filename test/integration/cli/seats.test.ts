import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plans, subscriptions } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { harnessCliEnv, type InProcessCli, inProcessCli } from "../../support/in-process-cli.js";

/**
 * Seats from the CLI, in-process against an engine harness: enrolling with --quantity, the CSV's
 * quantity column, the preview of the next charge, and a change of quantity alone.
 */

const START = "2026-01-15T09:00:00.000Z";
let h: EngineHarness;
let cli: InProcessCli;
let seatPlan: string;

beforeAll(async () => {
  h = await createEngineHarness({ start: START });
  cli = await inProcessCli(harnessCliEnv(h, START), "seats");
  const [plan] = await h.ctx.db
    .insert(plans)
    .values({
      name: "Team",
      amountMinor: 5_000,
      currency: "QAR",
      intervalUnit: "month",
      intervalCount: 1,
      billingMode: "autosave",
      collectionMethod: "send_payment_link",
      priceModel: "per_unit",
    })
    .returning();
  seatPlan = plan!.id;
}, 60_000);

afterAll(async () => {
  await h?.close();
  await cli?.close();
});

async function customer(email: string): Promise<string> {
  return (await cli.json<{ id: string }>("customers", "create", "--email", email)).id;
}

const quantityOf = async (id: string) =>
  (await h.ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!.quantity;

describe("seats from the CLI", () => {
  it("enrolls three seats, previews 150.00, and changes to five without proration", async () => {
    const id = await customer("three@example.com");
    const enrolled = await cli.json<{ subscription_id: string; status: string }>(
      "enroll",
      "--customer",
      id,
      "--plan",
      seatPlan,
      "--quantity",
      "3",
    );
    expect(enrolled.status).toBe("active");
    expect(await quantityOf(enrolled.subscription_id)).toBe(3);

    const preview = await cli.json<{ quantity: number; total: string; lines: { amount: string }[] }>(
      "subscriptions",
      "upcoming",
      enrolled.subscription_id,
    );
    expect(preview).toMatchObject({ quantity: 3, total: "150.00 QAR", lines: [{ amount: "150.00 QAR" }] });
    // The first period is billed (by link) before its plan or quantity can change.
    await runBillingTick(h.ctx, { batchSize: 50 });

    const changed = await cli.json<{ from_quantity: number; to_quantity: number; status: string }>(
      "subscriptions",
      "change-plan",
      enrolled.subscription_id,
      "--quantity",
      "5",
      "--proration",
      "none",
    );
    expect(changed).toMatchObject({ from_quantity: 3, to_quantity: 5, status: "applied" });
    expect(await quantityOf(enrolled.subscription_id)).toBe(5);
  });

  it("refuses a change with neither --plan nor --quantity, and --quantity 0", async () => {
    const neither = await cli.billing("subscriptions", "change-plan", "00000000-0000-4000-8000-000000000000");
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("--plan or --quantity");
    const zero = await cli.billing("enroll", "--customer", seatPlan, "--plan", seatPlan, "--quantity", "0");
    expect(zero.code).not.toBe(0);
    expect(zero.stderr).toContain("expected a whole number from 1 to 1000000");
  });

  it("takes each row's quantity from the CSV, and rejects one that is not a whole number", async () => {
    const csv = path.join(cli.dataDir, "seats.csv");
    await writeFile(
      csv,
      `email,name,phone,plan,quantity\nrow1@example.com,,,${seatPlan},7\nrow2@example.com,,,${seatPlan},\nrow3@example.com,,,${seatPlan},2.5\n`,
    );
    const run = await cli.billing("enroll", "--csv", csv);
    const out = await readFile(path.join(cli.dataDir, "seats.links.csv"), "utf8");
    expect(run.code, run.stderr).toBe(3);
    const rows = out.trim().split("\n").slice(1);
    expect(rows[0]).toContain("enrolled");
    expect(rows[1]).toContain("enrolled");
    expect(rows[2]).toContain('quantity ""2.5"" is not a whole number');
    const ids = rows
      .slice(0, 2)
      .map((row) => row.split(",").find((cell) => /^[0-9a-f-]{36}$/.test(cell) && cell !== seatPlan));
    expect(ids).toHaveLength(2);
  });
});

describe("one-off charges from the CLI", () => {
  it("adds one to the next bill, lists and cancels it, charges another now, and names a bad amount", async () => {
    const id = await customer("once@example.com");
    const { subscription_id: sub } = await cli.json<{ subscription_id: string }>(
      "enroll",
      "--customer",
      id,
      "--plan",
      seatPlan,
    );
    const waiting = await cli.json<{ id: string; status: string; amount: string }>(
      "subscriptions",
      "charge-once",
      sub,
      "--description",
      "Training",
      "--amount",
      "20.00",
      "--quantity",
      "2",
      "--next-bill",
    );
    expect(waiting).toMatchObject({ status: "waiting", amount: "40.00" });
    const listed = await cli.json<{ data: { id: string }[] }>("subscriptions", "one-off-charges", sub);
    expect(listed.data.map((row) => row.id)).toEqual([waiting.id]);
    const canceled = await cli.json<{ status: string }>("subscriptions", "cancel-one-off", sub, waiting.id);
    expect(canceled.status).toBe("canceled");

    const now = await cli.json<{ status: string; charge_id: string | null }>(
      "subscriptions",
      "charge-once",
      sub,
      "--description",
      "Set-up",
      "--amount",
      "99.00",
    );
    expect(now.status).toBe("billed");
    expect(now.charge_id).not.toBeNull();

    const bad = await cli.billing(
      "subscriptions",
      "charge-once",
      sub,
      "--description",
      "x",
      "--amount",
      "1.005",
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--amount");
  });
});
