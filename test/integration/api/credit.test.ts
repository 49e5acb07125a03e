import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { runCli } from "../../../src/cli/index.js";
import { events, subscriptions } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { type CardSubscription, chargesOf, createSubscription } from "../charging/fixtures.js";
import { type ApiHarness, createApiHarness } from "./support.js";

/**
 * Credit a person gives a customer: POST /v1/subscriptions/:id/credit and `billing subscriptions
 * credit`, each recorded as subscription.credit_granted naming who and why, and taken off the next
 * period's charge by the scheduler.
 */

let api: ApiHarness;
let sub: CardSubscription;
let dataDir: string;

beforeAll(async () => {
  api = await createApiHarness();
  dataDir = await mkdtemp(path.join(tmpdir(), "billing-credit-"));
  sub = await createSubscription(api.h, { kind: "autosave" });
  await runBillingTick(api.h.ctx, { batchSize: 10 });
}, 60_000);
afterAll(async () => {
  await api?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const creditUrl = (id: string) => `/v1/subscriptions/${id}/credit`;

async function grantedEvents(subscriptionId: string) {
  return api.h.ctx.db
    .select()
    .from(events)
    .where(and(eq(events.subscriptionId, subscriptionId), eq(events.type, "subscription.credit_granted")));
}

async function creditOf(subscriptionId: string) {
  const [row] = await api.h.ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  return row!.creditMinor;
}

/** `billing …` in-process on the harness's database; the CLI keeps its own billing clock there. */
async function billing(...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const env = {
    NODE_ENV: "test",
    DATABASE_URL: api.h.database.url,
    BILLING_DATA_DIR: dataDir,
    BILLING_CLOCK: "controllable",
    BILLING_CLOCK_START: "2026-01-20T09:00:00.000Z",
    LOG_LEVEL: "silent",
  };
  const code = await runCli(args, { stdout, stderr, env });
  return { code, stdout: stdout.read()?.toString() ?? "", stderr: stderr.read()?.toString() ?? "" };
}

describe("granting credit", () => {
  it("takes a decimal amount in the plan's currency, answers the balance and records who and why", async () => {
    const response = await api.call("POST", creditUrl(sub.subscriptionId), {
      body: { amount: "25.50", reason: "Service outage on 12 January" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      subscription_id: sub.subscriptionId,
      granted: { amount: "25.50", amount_minor: 2_550, currency: "QAR" },
      credit_balance: { amount: "25.50", amount_minor: 2_550, currency: "QAR" },
    });
    const [event] = await grantedEvents(sub.subscriptionId);
    expect(event).toMatchObject({ id: body.event_id, actor: `api:${api.keyId}`, customerId: sub.customerId });
    expect(event!.data).toEqual({
      amount_minor: 2_550,
      currency: "QAR",
      reason: "Service outage on 12 January",
      balance_minor: 2_550,
    });
  });

  it("from the CLI too, adding to the balance, with the CLI as the actor", async () => {
    const run = await billing(
      "subscriptions",
      "credit",
      sub.subscriptionId,
      "--amount",
      "4.5",
      "--reason",
      "Goodwill",
      "--json",
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      subscription_id: sub.subscriptionId,
      granted: "4.50",
      granted_minor: 450,
      credit_balance: "30.00",
      credit_balance_minor: 3_000,
      currency: "QAR",
    });
    const recorded = await grantedEvents(sub.subscriptionId);
    expect(recorded.map((e) => [e.actor, e.data.reason, e.data.balance_minor])).toEqual([
      [`api:${api.keyId}`, "Service outage on 12 January", 2_550],
      ["cli", "Goodwill", 3_000],
    ]);
  });

  it("is taken off the next period's charge", async () => {
    api.h.clock.set(sub.anchor.plus({ months: 1 }));
    await runBillingTick(api.h.ctx, { batchSize: 10 });
    const [first, second] = await chargesOf(api.h, sub.subscriptionId);
    expect(first).toMatchObject({ amountMinor: 10_000, creditMinor: 0 });
    expect(second).toMatchObject({ amountMinor: 7_000, creditMinor: 3_000 });
    expect(await creditOf(sub.subscriptionId)).toBe(0);
  });
});

describe("refusing credit", () => {
  const fieldsOf = (body: { errors?: { field: string }[] }) => body.errors?.map((e) => e.field);

  it.each([
    ["too many decimals for QAR", { amount: "10.005", reason: "x" }, "amount"],
    ["zero", { amount: "0.00", reason: "x" }, "amount"],
    ["a negative amount", { amount: "-5", reason: "x" }, "amount"],
    ["not a decimal", { amount: "ten", reason: "x" }, "amount"],
    ["no amount", { reason: "x" }, "amount"],
    ["both amounts", { amount: "1.00", amount_minor: 100, reason: "x" }, "amount"],
    ["a zero amount_minor", { amount_minor: 0, reason: "x" }, "amount_minor"],
    ["a fractional amount_minor", { amount_minor: 1.5, reason: "x" }, "amount_minor"],
    ["no reason", { amount: "1.00" }, "reason"],
    ["a blank reason", { amount: "1.00", reason: "   " }, "reason"],
    ["a reason over 300 characters", { amount: "1.00", reason: "x".repeat(301) }, "reason"],
    ["an unknown field", { amount: "1.00", reason: "x", note: "y" }, "note"],
  ])("%s: 400 naming the field", async (_what, body, field) => {
    const response = await api.call("POST", creditUrl(sub.subscriptionId), { body });
    expect(response.statusCode, response.body).toBe(400);
    expect(fieldsOf(response.json())).toContain(field);
  });

  it("a balance beyond twelve periods of the price: 422 naming the field", async () => {
    const response = await api.call("POST", creditUrl(sub.subscriptionId), {
      body: { amount_minor: 120_001, reason: "typo" },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: "amount_too_large", max_balance_minor: 120_000 });
    expect(fieldsOf(response.json())).toEqual(["amount_minor"]);
  });

  it("a subscription charged with a recurring card token: 422 card_amount_fixed", async () => {
    const recurring = await createSubscription(api.h, { kind: "recurring" });
    const response = await api.call("POST", creditUrl(recurring.subscriptionId), {
      body: { amount: "1.00", reason: "x" },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe("card_amount_fixed");
  });

  it("a canceled subscription: 409; an unknown one: 404", async () => {
    const ended = await createSubscription(api.h, { kind: "autosave" });
    await api.call("POST", `/v1/subscriptions/${ended.subscriptionId}/cancel`, { body: {} });
    const canceled = await api.call("POST", creditUrl(ended.subscriptionId), {
      body: { amount: "1.00", reason: "x" },
    });
    expect(canceled.statusCode).toBe(409);
    expect(canceled.json().code).toBe("subscription_ended");
    const unknown = await api.call("POST", creditUrl("00000000-0000-4000-8000-000000000000"), {
      body: { amount: "1.00", reason: "x" },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("a read-only key: 403, nothing granted", async () => {
    const { key } = await createApiKey(api.h.ctx.db, { name: "reader", readOnly: true });
    const before = await creditOf(sub.subscriptionId);
    const response = await api.call("POST", creditUrl(sub.subscriptionId), {
      key,
      body: { amount: "1.00", reason: "x" },
    });
    expect(response.statusCode).toBe(403);
    expect(await creditOf(sub.subscriptionId)).toBe(before);
  });

  it("from the CLI, names the option", async () => {
    const run = await billing(
      "subscriptions",
      "credit",
      sub.subscriptionId,
      "--amount",
      "1.005",
      "--reason",
      "x",
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("--amount");
    expect(run.stderr).toContain("more than 2 decimal place");
  });

  it("nothing refused was recorded", async () => {
    expect((await grantedEvents(sub.subscriptionId)).map((e) => e.data.reason)).toEqual([
      "Service outage on 12 January",
      "Goodwill",
    ]);
  });
});
