import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processChargeBatch } from "../../../src/charging/index.js";
import { runCli } from "../../../src/cli/index.js";
import { charges, events } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness, REDIS_URL } from "../../support/engine.js";

/**
 * Collection by payment link from the CLI, run in-process against an engine harness (its database,
 * simulator, queues and token key): plan flags, enrolling by link, switching a subscription's
 * method, the payment link of a charge awaiting payment, and the collection_method CSV columns.
 */

const START = "2026-01-15T09:00:00.000Z";
let h: EngineHarness;
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  h = await createEngineHarness({ start: START });
  dataDir = await mkdtemp(path.join(tmpdir(), "billing-links-"));
  const { config } = h.ctx;
  env = {
    NODE_ENV: "test",
    DATABASE_URL: config.DATABASE_URL,
    REDIS_URL,
    QUEUE_PREFIX: config.QUEUE_PREFIX,
    GATEWAY_BASE_URL: h.sim.url,
    GATEWAY_LEGACY_URL: h.sim.url,
    GATEWAY_API_KEY: h.sim.defaultApiKey,
    TOKEN_ENCRYPTION_KEY: config.TOKEN_ENCRYPTION_KEY,
    PUBLIC_URL: h.ctx.publicUrl,
    BILLING_CLOCK: "controllable",
    BILLING_CLOCK_START: START,
    BILLING_DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
  };
}, 60_000);

afterAll(async () => {
  await h?.close();
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

const PLAN = ["--amount", "100.00", "--currency", "QAR", "--interval", "month"];

async function customer(email: string): Promise<string> {
  return (await json<{ id: string }>("customers", "create", "--email", email)).id;
}

interface Enrolled {
  subscription_id: string;
  status: string;
  collection_method: string;
  enrollment_id: string | null;
  checkout_url: string | null;
}

let cardPlan: string;
let trialPlan: string;

describe("plans", () => {
  it("creates plans that pay by link or start their trial without a card, and lists how", async () => {
    const trial = await json(
      "plans",
      "create",
      "--name",
      "Trial",
      ...PLAN,
      "--trial-days",
      "7",
      "--trial-without-card",
    );
    expect(trial).toMatchObject({
      trial_days: 7,
      trial_without_card: true,
      collection_method: "charge_automatically",
    });
    const byLink = await json(
      "plans",
      "create",
      "--name",
      "Links",
      ...PLAN,
      "--collection-method",
      "send_payment_link",
    );
    expect(byLink).toMatchObject({ collection_method: "send_payment_link", trial_without_card: false });
    const card = await json("plans", "create", "--name", "Card", ...PLAN);
    expect(card).toMatchObject({ collection_method: "charge_automatically", trial_without_card: false });
    trialPlan = trial.id as string;
    cardPlan = card.id as string;

    const listed = await json<{ data: Record<string, unknown>[] }>("plans", "list");
    expect(listed.data.map((p) => [p.name, p.collection_method, p.trial_without_card])).toEqual([
      ["Trial", "charge_automatically", true],
      ["Links", "send_payment_link", false],
      ["Card", "charge_automatically", false],
    ]);
    const table = await billing("plans", "list");
    expect(table.stdout.split("\n")[0]).toMatch(/collection_method\s+trial_without_card$/);
  });

  it("names the option to fix", async () => {
    const noTrial = await billing("plans", "create", "--name", "Bad", ...PLAN, "--trial-without-card");
    expect(noTrial.code).toBe(2);
    expect(noTrial.stderr).toContain("--trial-without-card: needs trial_days of at least 1");
    const bogus = await billing("plans", "create", "--name", "Bad", ...PLAN, "--collection-method", "cash");
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("--collection-method");
  });
});

describe("enrolling and switching", () => {
  it("enrolls by link with no checkout, started at once; a plan whose trial needs no card does so by itself", async () => {
    const byLink = await json<Enrolled>(
      "enroll",
      "--customer",
      await customer("link@example.qa"),
      "--plan",
      cardPlan,
      "--collection-method",
      "send_payment_link",
    );
    expect(byLink).toEqual({
      subscription_id: expect.any(String),
      status: "active",
      collection_method: "send_payment_link",
      enrollment_id: null,
      checkout_url: null,
    });
    const trialing = await json<Enrolled>(
      "enroll",
      "--customer",
      await customer("trial@example.qa"),
      "--plan",
      trialPlan,
    );
    expect(trialing).toMatchObject({
      status: "trialing",
      collection_method: "send_payment_link",
      checkout_url: null,
    });
    const byCard = await json<Enrolled>(
      "enroll",
      "--customer",
      await customer("card@example.qa"),
      "--plan",
      cardPlan,
    );
    expect(byCard).toMatchObject({
      status: "pending_enrollment",
      collection_method: "charge_automatically",
      checkout_url: expect.stringContaining("/checkout/"),
    });

    const shown = await json("subscriptions", "show", byLink.subscription_id);
    expect(shown).toMatchObject({ status: "active", collection_method: "send_payment_link" });
    const listed = await json<{ data: { id: string; collection_method: string }[] }>("subscriptions", "list");
    expect(listed.data.find((s) => s.id === byCard.subscription_id)?.collection_method).toBe(
      "charge_automatically",
    );
    const table = await billing("subscriptions", "list");
    expect(table.stdout.split("\n")[0]).toMatch(/^id\s+status\s+collection_method\s/);

    const bad = await billing(
      "enroll",
      "--customer",
      await customer("bad@example.qa"),
      "--plan",
      cardPlan,
      "--collection-method",
      "cash",
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--collection-method");
  });

  it("refuses to charge automatically without a card, and switches one with a card both ways", async () => {
    const { subscription_id: noCard } = await json<Enrolled>(
      "enroll",
      "--customer",
      await customer("nocard@example.qa"),
      "--plan",
      cardPlan,
      "--collection-method",
      "send_payment_link",
    );
    const refused = await billing("subscriptions", "set-collection-method", noCard, "charge_automatically");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("has no card on file");
    const same = await json("subscriptions", "set-collection-method", noCard, "send_payment_link");
    expect(same).toMatchObject({ id: noCard, collection_method: "send_payment_link", changed: false });

    // Imported with a card the gateway issued, paying by link: the card can take over, and back.
    const { tokens } = await h.simAdmin<{ tokens: { card_token: string }[] }>("POST", "/_sim/tokens", {
      count: 1,
      amount: "100.00",
    });
    const csv = path.join(dataDir, "switch.csv");
    await writeFile(
      csv,
      [
        "email,plan,card_token,collection_method",
        `switch@example.qa,${cardPlan},${tokens[0]!.card_token},send_payment_link`,
      ].join("\n"),
    );
    const imported = await json<{ imported: number; rows: { subscriptionId: string }[] }>(
      "import",
      "--csv",
      csv,
    );
    expect(imported.imported).toBe(1);
    const id = imported.rows[0]!.subscriptionId;
    expect(await json("subscriptions", "show", id)).toMatchObject({ collection_method: "send_payment_link" });

    const toCard = await json("subscriptions", "set-collection-method", id, "charge_automatically");
    expect(toCard).toMatchObject({
      id,
      status: "active",
      collection_method: "charge_automatically",
      changed: true,
      charge_ids: [],
    });
    const toLink = await json("subscriptions", "set-collection-method", id, "send_payment_link");
    expect(toLink).toMatchObject({ id, collection_method: "send_payment_link", changed: true });
    const human = await billing("subscriptions", "set-collection-method", id, "send_payment_link");
    expect(human.stdout).toMatch(/^collection_method\s+send_payment_link$/m);

    const bad = await billing("subscriptions", "set-collection-method", id, "cash");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("charge_automatically, send_payment_link");
  });
});

describe("a charge awaiting payment by link", () => {
  it("shows its payment link in charges show, the one the merchant was sent", async () => {
    const { subscription_id: subscriptionId } = await json<Enrolled>(
      "enroll",
      "--customer",
      await customer("pays-by-link@example.qa"),
      "--plan",
      cardPlan,
      "--collection-method",
      "send_payment_link",
    );
    await runBillingTick(h.ctx);
    const [due] = await h.ctx.db.select().from(charges).where(eq(charges.subscriptionId, subscriptionId));
    expect(await json("charges", "show", due!.id)).toMatchObject({ status: "scheduled", payment_link: null });

    await processChargeBatch(h.ctx, [due!.id]);
    const [sent] = await h.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chargeId, due!.id), eq(events.type, "charge.payment_link_created")));
    const link = (sent!.data as { payment_link: string }).payment_link;
    expect(link).toContain(`/pay/${due!.id}/`);

    const shown = await json("charges", "show", due!.id);
    expect(shown).toMatchObject({ id: due!.id, status: "awaiting_payment", payment_link: link });
    const human = await billing("charges", "show", due!.id);
    expect(human.stdout).toContain(`payment_link `);
    expect(human.stdout).toContain(link);
    const listed = await json<{ data: { id: string; payment_link: string | null }[] }>(
      "charges",
      "list",
      "--status",
      "awaiting_payment",
    );
    expect(listed.data.map((c) => [c.id, c.payment_link])).toEqual([[due!.id, link]]);
  });

  it("shows none without the token key that signs links, saying why", async () => {
    const [awaiting] = await h.ctx.db.select().from(charges).where(eq(charges.status, "awaiting_payment"));
    const saved = env;
    env = { ...env, TOKEN_ENCRYPTION_KEY: undefined, TOKEN_DEV_KEY_FILE: path.join(dataDir, "no-key") };
    try {
      const run = await billing("charges", "show", awaiting!.id, "--json");
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ status: "awaiting_payment", payment_link: null });
      expect(run.stderr).toContain("payment links are not shown");
    } finally {
      env = saved;
    }
  });
});

describe("CSV files with a collection_method column", () => {
  it("enrolls each row as its collection_method says, rejecting an unknown one by line", async () => {
    const csv = path.join(dataDir, "enroll.csv");
    const out = path.join(dataDir, "enroll.links.csv");
    await writeFile(
      csv,
      [
        "email,name,phone,plan,collection_method",
        `bulk-link@example.qa,,,${cardPlan},send_payment_link`,
        `bulk-card@example.qa,,,${cardPlan},`,
        `bulk-bad@example.qa,,,${cardPlan},cash`,
      ].join("\n"),
    );
    const run = await billing("enroll", "--csv", csv, "--out", out, "--json");
    expect(run.code).toBe(3);
    const report = JSON.parse(run.stdout) as {
      rows: { line: number; status: string; collection_method: string | null; checkout_url: string | null }[];
    };
    expect(report.rows.map((r) => [r.line, r.status, r.collection_method, r.checkout_url !== null])).toEqual([
      [2, "enrolled", "send_payment_link", false],
      [3, "enrolled", "charge_automatically", true],
      [4, "rejected", null, false],
    ]);
    expect(run.stderr).toContain('line 4: collection_method "cash" is not one of');
    expect((await readFile(out, "utf8")).split("\n")[0]).toBe(
      "line,email,plan,status,customer_id,subscription_id,checkout_url,error",
    );

    // Again: nothing is enrolled twice, and the existing ones say how they pay.
    const again = JSON.parse(
      (await billing("enroll", "--csv", csv, "--out", out, "--json")).stdout,
    ) as typeof report;
    expect(again.rows.map((r) => [r.status, r.collection_method])).toEqual([
      ["existing", "send_payment_link"],
      ["existing", "charge_automatically"],
      ["rejected", null],
    ]);

    const mixed = await billing("enroll", "--csv", csv, "--collection-method", "send_payment_link");
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--collection-method: only with --customer and --plan");
  });
});
