import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControllableClock } from "../../../src/clock/index.js";
import { charges, customers, invoices, subscriptions } from "../../../src/db/schema/index.js";
import { silentLogger } from "../../../src/logger/index.js";
import { configureMerchant } from "../../../src/runtime/in-process-gateway.js";
import { type EngineProcess, startEngineProcess } from "../../../src/runtime/index.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { REDIS_URL } from "../../support/engine.js";
import { jsonOf, runBilling, waitFor } from "./support.js";

/**
 * The billing CLI end to end, as a child process with --json: against a simulator started here, a
 * fresh database and Redis queues under a prefix of their own. This process runs our HTTP server
 * (the gateway's callbacks) and the workers; the CLI children only talk to the database, the queues
 * and the simulator, as an operator's shell would.
 */

const START = "2026-01-15T09:00:00.000Z";
const CARDS = {
  approves: "4111111111111111",
  insufficientFunds: "4000000000000341",
  doNotHonourTwice: "4000000000000002",
} as const;

let database: TestDatabase;
let simulator: RunningSimulator;
let engine: EngineProcess;
let dataDir: string;
let env: NodeJS.ProcessEnv;

const billing = (...args: string[]) => runBilling([...args, "--json"], env);

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startSimulator({ clock: new ControllableClock(START) });
  dataDir = await mkdtemp(path.join(tmpdir(), "billing-cli-"));
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    REDIS_URL,
    QUEUE_PREFIX: `t_${randomBytes(5).toString("hex")}`,
    QUEUE_BACKOFF_MS: "50",
    GATEWAY_BASE_URL: simulator.url,
    GATEWAY_LEGACY_URL: simulator.url,
    GATEWAY_API_KEY: simulator.defaultApiKey,
    GATEWAY_TIMEOUT_MS: "5000",
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    BILLING_CLOCK: "controllable",
    BILLING_CLOCK_START: START,
    BILLING_DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
  };
  engine = await startEngineProcess({
    env,
    logger: silentLogger,
    parts: { http: true, scheduler: false, workers: true },
  });
  env.PUBLIC_URL = engine.ctx.publicUrl;
  await configureMerchant(simulator, engine.ctx.publicUrl);
}, 60_000);

afterAll(async () => {
  await engine?.ctx.queues.obliterate().catch(() => undefined);
  await engine?.close();
  await simulator?.close();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Plan {
  id: string;
  amount: string;
  amount_minor: number;
  currency: string;
}
interface Customer {
  id: string;
  email: string;
  created: boolean;
}
interface Enrolled {
  subscription_id: string;
  checkout_url: string;
}
interface Subscription {
  id: string;
  status: string;
  current_period_start: string | null;
  current_period_end: string | null;
  next_billing_at: string | null;
}
interface Charge {
  id: string;
  status: string;
  subscription_id: string;
  attempt_count: number;
}

/** Pays the hosted checkout with CVV 123 and follows the redirect into our server, as a browser does. */
async function payCheckout(checkoutUrl: string, card: string): Promise<void> {
  const response = await fetch(`${simulator.url}/_sim/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      checkout_url: checkoutUrl,
      card_number: card,
      expiry: "12/30",
      cvv: "123",
      name: "Test",
    }),
  });
  const reply = (await response.json()) as { status: string; redirect_url: string };
  expect(reply.status).toBe("SUCCESS");
  const page = await fetch(reply.redirect_url);
  expect(page.status).toBe(200);
}

/** Waits, reading the database, until the worker has left the subscription's charge in `status`. */
async function chargeSettled(subscriptionId: string, status: string): Promise<void> {
  await waitFor(`the charge of ${subscriptionId} to be ${status}`, async () => {
    const [row] = await database.db.select().from(charges).where(eq(charges.subscriptionId, subscriptionId));
    return row?.status === status ? row : undefined;
  });
}

async function chargeOf(subscriptionId: string): Promise<Charge[]> {
  return jsonOf<{ data: Charge[] }>(await billing("charges", "list", "--subscription", subscriptionId)).data;
}

describe("billing CLI", () => {
  let plan: Plan;

  it("creates a plan, and names the option when the amount is wrong", async () => {
    plan = jsonOf<Plan>(
      await billing(
        "plans",
        "create",
        "--name",
        "Pro",
        "--amount",
        "100.00",
        "--currency",
        "QAR",
        "--interval",
        "month",
      ),
    );
    expect(plan).toMatchObject({ amount: "100.00", amount_minor: 10_000, currency: "QAR" });
    expect(plan.id).toMatch(/^[0-9a-f-]{36}$/);

    const bad = await billing(
      "plans",
      "create",
      "--name",
      "Bad",
      "--amount",
      "10.123",
      "--currency",
      "QAR",
      "--interval",
      "month",
    );
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain('error: --amount: "10.123" has more than 2 decimal');
    expect(bad.stderr).toContain("QAR");

    // Every bad option at once; an amount with spaces around it is refused, not trimmed.
    const several = await billing(
      "plans",
      "create",
      "--name",
      "Dinar",
      "--amount",
      " 10.000",
      "--currency",
      "kwd",
      "--interval",
      "month",
    );
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('error: --amount: " 10.000" has spaces around it');
    expect(several.stderr).toContain(
      "--currency: KWD is not one the gateway account takes; allowed: QAR (GATEWAY_CURRENCIES)",
    );

    const listed = jsonOf<{ data: Plan[] }>(await billing("plans", "list"));
    expect(listed.data.map((p) => p.id)).toEqual([plan.id]);
  }, 60_000);

  it("enrolls, charges, refunds, runs dunning and retries a charge", async () => {
    const alice = jsonOf<Customer>(
      await billing("customers", "create", "--email", "Alice@Example.com", "--name", "Alice"),
    );
    expect(alice).toMatchObject({ email: "alice@example.com", created: true });
    const again = jsonOf<Customer>(await billing("customers", "create", "--email", "alice@example.com"));
    expect(again).toMatchObject({ id: alice.id, created: false });
    const bob = jsonOf<Customer>(
      await billing("customers", "create", "--email", "bob@example.com", "--language", "ar"),
    );
    const carol = jsonOf<Customer>(await billing("customers", "create", "--email", "carol@example.com"));

    const subs = {
      alice: jsonOf<Enrolled>(await billing("enroll", "--customer", alice.id, "--plan", plan.id)),
      bob: jsonOf<Enrolled>(await billing("enroll", "--customer", bob.id, "--plan", plan.id)),
      carol: jsonOf<Enrolled>(await billing("enroll", "--customer", carol.id, "--plan", plan.id)),
    };
    expect(subs.alice.checkout_url).toContain(`${simulator.url}/checkout/`);
    await payCheckout(subs.alice.checkout_url, CARDS.approves);
    await payCheckout(subs.bob.checkout_url, CARDS.insufficientFunds);
    await payCheckout(subs.carol.checkout_url, CARDS.doNotHonourTwice);

    const shown = jsonOf<Subscription>(await billing("subscriptions", "show", subs.alice.subscription_id));
    expect(shown).toMatchObject({ id: subs.alice.subscription_id, status: "active" });
    expect(shown).toHaveProperty("current_period_start");
    expect(shown).toHaveProperty("current_period_end");
    expect(shown.next_billing_at).not.toBeNull();
    const active = jsonOf<{ data: Subscription[] }>(
      await billing("subscriptions", "list", "--status", "active"),
    );
    expect(active.data).toHaveLength(3);

    // One tick bills the first period of each; this process's charge worker collects them.
    const tick = jsonOf<{ charges_created: number }>(await billing("scheduler", "--once"));
    expect(tick.charges_created).toBe(3);
    await chargeSettled(subs.alice.subscription_id, "paid");
    // Both declines are retryable, so dunning schedules a retry one day later for each.
    await chargeSettled(subs.bob.subscription_id, "retrying");
    await chargeSettled(subs.carol.subscription_id, "retrying");

    const [alicePaid] = await chargeOf(subs.alice.subscription_id);
    const refund = jsonOf<{ charge_id: string; status: string; amount: string }>(
      await billing("charges", "refund", alicePaid!.id),
    );
    expect(refund).toMatchObject({ charge_id: alicePaid!.id, status: "completed", amount: "100.00" });

    const moved = jsonOf<{ now: string; previous: string; simulator: string }>(
      await billing("clock", "advance", "P1D"),
    );
    expect(moved.simulator).toBe("moved");
    expect(Date.parse(moved.now) - Date.parse(moved.previous)).toBe(86_400_000);
    const simClock = (await (await fetch(`${simulator.url}/_sim/clock`)).json()) as { now: string };
    expect(simClock.now).toBe(moved.now);

    const dry = jsonOf<{ dry_run: boolean; attempted: number; charges: { subscription_id: string }[] }>(
      await billing("dunning", "run", "--dry-run"),
    );
    expect(dry).toMatchObject({ dry_run: true, attempted: 0 });
    expect(dry.charges.map((charge) => charge.subscription_id).sort()).toEqual(
      [subs.bob.subscription_id, subs.carol.subscription_id].sort(),
    );
    const run = jsonOf(await billing("dunning", "run"));
    expect(run).toMatchObject({
      selected: 2,
      attempted: 2,
      approved: 0,
      declined: 2,
      unknown: 0,
      needs_review: 0,
      deferred: 0,
      failed: 0,
      skipped: 0,
      skip_reasons: {},
    });
    const [bobCharge] = await chargeOf(subs.bob.subscription_id);
    expect(bobCharge).toMatchObject({ status: "retrying", attempt_count: 2 });

    // The operator's retry collects now, ahead of the schedule: carol's card pays its third try.
    const [carolCharge] = await chargeOf(subs.carol.subscription_id);
    expect(carolCharge).toMatchObject({ status: "retrying", attempt_count: 2 });
    const paid = jsonOf<{ outcome: string; attempt_number: number }>(
      await billing("charges", "retry", carolCharge!.id),
    );
    expect(paid).toMatchObject({ outcome: "paid", attempt_number: 3 });

    // Only a charge held for review can be reconciled; a paid one is refused.
    const refused = await billing("charges", "reconcile", carolCharge!.id);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is not held for review");
  }, 240_000);

  it("cancels a subscription", async () => {
    const gina = jsonOf<Customer>(await billing("customers", "create", "--email", "gina@example.com"));
    const enrolled = jsonOf<Enrolled>(await billing("enroll", "--customer", gina.id, "--plan", plan.id));
    const canceled = jsonOf<{ id: string; status: string }>(
      await billing("subscriptions", "cancel", enrolled.subscription_id),
    );
    expect(canceled).toMatchObject({ id: enrolled.subscription_id, status: "canceled" });
  }, 60_000);

  it("changes a subscription's plan now with proration, and schedules and takes back a change", async () => {
    const plan = async (name: string, amount: string) =>
      jsonOf<Plan>(
        await billing(
          "plans",
          "create",
          "--name",
          name,
          "--amount",
          amount,
          "--currency",
          "QAR",
          "--interval",
          "month",
          "--billing-mode",
          "autosave",
        ),
      );
    const flex = await plan("Flex", "100.00");
    const flexPlus = await plan("Flex Plus", "150.00");
    const ivan = jsonOf<Customer>(await billing("customers", "create", "--email", "ivan@example.com"));
    const enrolled = jsonOf<Enrolled>(await billing("enroll", "--customer", ivan.id, "--plan", flex.id));
    await payCheckout(enrolled.checkout_url, CARDS.approves);
    const subscription = enrolled.subscription_id;
    await billing("scheduler", "--once");
    await chargeSettled(subscription, "paid");
    const changePlan = async (planId: string, proration: string) =>
      jsonOf<Record<string, unknown>>(
        await billing(
          "subscriptions",
          "change-plan",
          subscription,
          "--plan",
          planId,
          "--proration",
          proration,
        ),
      );

    // At the very start of the period nothing of it is used: 150.00 − 100.00 is charged at once.
    const changed = await changePlan(flexPlus.id, "immediate_prorate");
    expect(changed).toMatchObject({
      status: "applied",
      credit: "100.00",
      debit: "150.00",
      charge_amount: "50.00",
      currency: "QAR",
    });
    // The charge as the merchant API shows it: money as {amount, amount_minor, currency}.
    const difference = jsonOf<{ kind: string }>(await billing("charges", "show", String(changed.charge_id)));
    expect(difference).toMatchObject({
      kind: "plan_change",
      amount: { amount: "50.00", amount_minor: 5_000, currency: "QAR" },
      credit: { amount: "0.00", amount_minor: 0, currency: "QAR" },
    });
    const scheduled = await changePlan(flex.id, "at_period_end");
    expect(scheduled).toMatchObject({ status: "scheduled", charge_id: null });
    const taken = jsonOf<{ plan_change_id: string }>(
      await billing("subscriptions", "cancel-plan-change", subscription),
    );
    expect(taken.plan_change_id).toBe(scheduled.plan_change_id);
    const again = await billing("subscriptions", "cancel-plan-change", subscription);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("has no scheduled plan change");
    const bad = await billing(
      "subscriptions",
      "change-plan",
      subscription,
      "--plan",
      flex.id,
      "--proration",
      "sometimes",
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--proration");
  }, 120_000);

  it("refuses to enrol a customer twice in a plan unless asked, naming the subscription", async () => {
    const hana = jsonOf<Customer>(await billing("customers", "create", "--email", "hana@example.com"));
    const first = jsonOf<Enrolled>(await billing("enroll", "--customer", hana.id, "--plan", plan.id));
    const again = await billing("enroll", "--customer", hana.id, "--plan", plan.id);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain(
      `already has subscription ${first.subscription_id} (pending_enrollment) to plan ${plan.id}; pass --allow-duplicate`,
    );
    const second = jsonOf<Enrolled>(
      await billing("enroll", "--customer", hana.id, "--plan", plan.id, "--allow-duplicate"),
    );
    expect(second.subscription_id).not.toBe(first.subscription_id);
  }, 60_000);

  it("creates an API key and prints it once", async () => {
    const key = jsonOf<{ id: string; key: string; name: string }>(
      await billing("keys", "create", "--name", "shop"),
    );
    expect(key.name).toBe("shop");
    expect(key.key).toMatch(/^bk_[0-9A-Za-z]{40}$/);
  });

  it("lists API keys without their secret, and revokes one at once", async () => {
    const key = jsonOf<{ id: string; key: string }>(await billing("keys", "create", "--name", "to revoke"));
    interface Listed {
      id: string;
      name: string;
      prefix: string;
      revoked_at: string | null;
    }
    const listed = jsonOf<{ data: Listed[] }>(await billing("keys", "list")).data;
    const mine = listed.find((k) => k.id === key.id);
    expect(mine).toMatchObject({
      name: "to revoke",
      prefix: key.key.slice(0, mine!.prefix.length),
      revoked_at: null,
    });
    expect(JSON.stringify(listed)).not.toContain(key.key);

    expect(jsonOf(await billing("keys", "revoke", key.id))).toEqual({ id: key.id, revoked: true });
    const after = jsonOf<{ data: Listed[] }>(await billing("keys", "list")).data;
    expect(after.find((k) => k.id === key.id)?.revoked_at).not.toBeNull();
    const again = await billing("keys", "revoke", key.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("does not exist or is already revoked");
  }, 120_000);

  it("lists and shows invoices with why one failed", async () => {
    const [charge] = await database.db.select().from(charges).limit(1);
    const [invoice] = await database.db
      .insert(invoices)
      .values({
        chargeId: charge!.id,
        status: "failed",
        amountMinor: charge!.amountMinor,
        currency: charge!.currency,
        attempts: 1,
        lastError: "product_id: not found",
      })
      .returning();
    interface Invoice {
      id: string;
      status: string;
      last_error: string | null;
      subscription_id: string;
    }
    const listed = jsonOf<{ data: Invoice[] }>(
      await billing("invoices", "list", "--subscription", charge!.subscriptionId),
    );
    expect(listed.data).toMatchObject([
      { id: invoice!.id, status: "failed", last_error: "product_id: not found" },
    ]);
    expect(jsonOf<Invoice>(await billing("invoices", "show", invoice!.id))).toMatchObject({
      id: invoice!.id,
      subscription_id: charge!.subscriptionId,
      attempts: 1,
    });
  }, 60_000);

  it("prints its version", async () => {
    const run = await runBilling(["--version"], env);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("enrolls from a CSV, reports bad rows by line, and creates nothing twice on a re-run", async () => {
    const csv = path.join(dataDir, "customers.csv");
    const out = path.join(dataDir, "links.csv");
    await writeFile(
      csv,
      [
        "email,name,phone,plan",
        `dave@example.com,Dave,+97455555555,${plan.id}`,
        `not-an-email,Nobody,,${plan.id}`,
        `erin@example.com,Erin,,${plan.id}`,
        "frank@example.com,Frank,,00000000-0000-4000-8000-000000000000",
        // An unquoted comma in the name: five cells under four columns, not read by position.
        `george@example.com,George, Al-Thani,,${plan.id}`,
      ].join("\n"),
    );
    interface Bulk {
      enrolled: number;
      existing: number;
      rejected: number;
      rows: {
        line: number;
        email: string;
        status: string;
        subscription_id: string | null;
        checkout_url: string | null;
        error: string | null;
      }[];
    }
    const first = await billing("enroll", "--csv", csv, "--out", out);
    expect(first.code).toBe(3);
    const report = JSON.parse(first.stdout) as Bulk;
    expect(report).toMatchObject({ enrolled: 2, existing: 0, rejected: 3 });
    expect(report.rows.filter((row) => row.status === "rejected").map((row) => row.line)).toEqual([3, 5, 6]);
    expect(first.stderr).toContain("line 3: ");
    expect(first.stderr).toContain("line 5: ");
    expect(first.stderr).toContain(
      "line 6: 5 columns where the header has 4 (put a value holding a comma in double quotes)",
    );
    const links = await readFile(out, "utf8");
    expect(links.split("\n")[0]).toBe(
      "line,email,plan,status,customer_id,subscription_id,checkout_url,error",
    );
    for (const row of report.rows.filter((r) => r.status === "enrolled"))
      expect(links).toContain(row.checkout_url);

    const second = JSON.parse((await billing("enroll", "--csv", csv, "--out", out)).stdout) as Bulk;
    expect(second).toMatchObject({ enrolled: 0, existing: 2, rejected: 3 });
    const byLine = (bulk: Bulk) =>
      bulk.rows
        .filter((r) => r.status !== "rejected")
        .map((r) => [r.line, r.subscription_id, r.checkout_url]);
    expect(byLine(second)).toEqual(byLine(report));

    const created = await database.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .innerJoin(customers, eq(customers.id, subscriptions.customerId))
      .where(
        inArray(customers.email, [
          "dave@example.com",
          "erin@example.com",
          "frank@example.com",
          "george@example.com",
        ]),
      );
    expect(created).toHaveLength(2);
    const george = await database.db
      .select()
      .from(customers)
      .where(eq(customers.email, "george@example.com"));
    expect(george).toEqual([]);

    const mixed = await billing("enroll", "--csv", csv, "--allow-duplicate");
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--allow-duplicate: only with --customer and --plan");
  }, 90_000);

  it("imports subscriptions with their gateway tokens from a CSV, once", async () => {
    const minted = await fetch(`${simulator.url}/_sim/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: 2 }),
    });
    const { tokens } = (await minted.json()) as { tokens: { card_token: string }[] };
    const csv = path.join(dataDir, "import.csv");
    await writeFile(
      csv,
      [
        "email,plan,card_token,card_expiry",
        `ivy@example.com,${plan.id},${tokens[0]!.card_token},12/30`,
        `jack@example.com,${plan.id},${tokens[1]!.card_token},13/30`,
      ].join("\n"),
    );
    interface Imported {
      imported: number;
      existing: number;
      rejected: number;
    }

    const first = await billing("import", "--csv", csv);
    expect(first.code).toBe(3);
    expect(JSON.parse(first.stdout)).toMatchObject({ imported: 1, existing: 0, rejected: 1 });
    expect(first.stderr).toContain("line 3: card_expiry");
    const again = JSON.parse((await billing("import", "--csv", csv)).stdout) as Imported;
    expect(again).toMatchObject({ imported: 0, existing: 1, rejected: 1 });
  }, 90_000);

  it("refuses to move a system clock, with a message saying why", async () => {
    const run = await runBilling(["clock", "advance", "1mo", "--json"], { ...env, BILLING_CLOCK: "system" });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("BILLING_CLOCK=controllable");
  });

  it("names a bad id option", async () => {
    const run = await billing("subscriptions", "show", "nope");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("expected an id");
  });
});
