import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processChargeBatch } from "../../../src/charging/index.js";
import { importSubscriptions, readImportCsv } from "../../../src/imports/index.js";
import { createPlan } from "../../../src/plans/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { collections } from "../charging/fixtures.js";

/**
 * `billing import`: subscriptions arriving with tokens the gateway already issued (minted here by the
 * simulator's /_sim/tokens), written in bulk, exactly once, and billed like enrolled ones.
 */
describe("importing subscriptions with their card tokens", () => {
  let h: EngineHarness;
  let planId: string;
  let tokens: string[];

  beforeEach(async () => {
    h = await createEngineHarness({ start: "2026-03-01T09:00:00Z" });
    const plan = await createPlan(h.ctx, {
      name: "Pro",
      amount: "49.00",
      currency: "QAR",
      interval: "month",
    });
    planId = plan.id;
    const minted = await h.simAdmin<{ tokens: { card_token: string }[] }>("POST", "/_sim/tokens", {
      count: 3,
      amount: "49.00",
    });
    tokens = minted.tokens.map((t) => t.card_token);
  });
  afterEach(() => h?.close());

  const csv = (lines: string[]) =>
    ["email,name,plan,card_token,card_expiry,card_last4,next_billing_at", ...lines].join("\n");

  it("imports every row once: a second run of the same file writes nothing", async () => {
    const file = csv([
      `a@example.com,Ann,Pro,${tokens[0]},12/30,1111,2026-03-05T00:00:00Z`,
      `b@example.com,Bob,${planId},${tokens[1]},12/30,1111,2026-03-06T00:00:00Z`,
      `a@example.com,Ann,Pro,${tokens[2]},,,`,
    ]);

    const first = await importSubscriptions(h.ctx, readImportCsv(file));
    expect(first).toMatchObject({ imported: 3, existing: 0, rejected: 0 });
    const again = await importSubscriptions(h.ctx, readImportCsv(file));
    expect(again).toMatchObject({ imported: 0, existing: 3, rejected: 0 });

    const subs = await h.ctx.db.$client<
      { email: string; status: string; next_billing_at: string; card: boolean }[]
    >`
      select c.email, s.status, s.next_billing_at::text, s.payment_method_id is not null as card
      from subscriptions s join customers c on c.id = s.customer_id order by s.next_billing_at`;
    expect(subs.map((s) => [s.email, s.status, s.card])).toEqual([
      ["a@example.com", "active", true],
      ["a@example.com", "active", true],
      ["b@example.com", "active", true],
    ]);
    // The subscription and its payment method name each other, by time-ordered ids (UUID version 7).
    const linked = await h.ctx.db.$client<{ subscription: string; method: string }[]>`
      select s.id::text as subscription, pm.id::text as method
      from subscriptions s join payment_methods pm on pm.id = s.payment_method_id and pm.subscription_id = s.id`;
    expect(linked).toHaveLength(3);
    for (const { subscription, method } of linked) {
      expect(subscription).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(method).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    const customers = await h.ctx.db.$client`select id from customers`;
    expect(customers).toHaveLength(2);
    const events = await h.ctx.db.$client`select id from events where type = 'subscription.imported'`;
    expect(events).toHaveLength(3);
  });

  it("seals the tokens: the database holds ciphertext, and the vault opens it to the token", async () => {
    await importSubscriptions(h.ctx, readImportCsv(csv([`a@example.com,,Pro,${tokens[0]},12/30,1111,`])));

    const [row] = await h.ctx.db.$client<
      { ciphertext: Buffer; nonce: Buffer; tag: Buffer; key_id: string }[]
    >`
      select token_ciphertext as ciphertext, token_nonce as nonce, token_tag as tag, token_key_id as key_id
      from payment_methods`;
    const dump = JSON.stringify(await h.ctx.db.$client`select * from payment_methods`);
    expect(dump).not.toContain(tokens[0]!);
    expect(h.ctx.vault.decrypt({ ...row!, keyId: row!.key_id })).toBe(tokens[0]);
  });

  it("rejects a bad row with its line and column and writes none of it; the others are imported", async () => {
    const report = await importSubscriptions(
      h.ctx,
      readImportCsv(
        csv([
          `a@example.com,,Pro,${tokens[0]},12/30,1111,`,
          `not-an-email,,Pro,${tokens[1]},12/30,1111,`,
          `c@example.com,,Basic,${tokens[2]},12/30,1111,`,
          `d@example.com,,Pro,${tokens[0]},12/30,1111,`,
        ]),
      ),
    );

    expect(report).toMatchObject({ imported: 1, rejected: 3 });
    expect(report.rows.map((r) => [r.line, r.status, r.error?.split(":")[0] ?? null])).toEqual([
      [2, "imported", null],
      [3, "rejected", "email"],
      [4, "rejected", "plan"],
      [5, "rejected", "card_token"],
    ]);
    const emails = await h.ctx.db.$client<{ email: string }[]>`select email from customers order by email`;
    expect(emails.map((e) => e.email)).toEqual(["a@example.com"]);
  });

  it("is billed like an enrolled subscription: the tick bills it when due and the charge is collected once", async () => {
    await importSubscriptions(
      h.ctx,
      readImportCsv(csv([`a@example.com,,Pro,${tokens[0]},12/30,1111,2026-03-01T09:00:00Z`])),
    );

    const tick = await runBillingTick(h.ctx, { batchSize: 10 });
    expect(tick).toMatchObject({ chargesCreated: 1 });
    const [charge] = await h.ctx.db.$client<
      { id: string; amount_minor: string }[]
    >`select id, amount_minor from charges`;
    expect(charge!.amount_minor).toBe("4900");
    const { results } = await processChargeBatch(h.ctx, [charge!.id]);

    expect(results.get(charge!.id)?.kind).toBe("paid");
    expect((await collections(h, tokens[0]!)).map((p) => p.status)).toEqual(["SUCCESS"]);
  });

  it("takes an optional collection_method column: the row's method, else the plan's; an unknown one is rejected", async () => {
    await createPlan(h.ctx, {
      name: "Links",
      amount: "49.00",
      currency: "QAR",
      interval: "month",
      collection_method: "send_payment_link",
    });
    const minted = await h.simAdmin<{ tokens: { card_token: string }[] }>("POST", "/_sim/tokens", {
      count: 2,
      amount: "49.00",
    });
    const [t3, t4] = minted.tokens.map((t) => t.card_token);
    const file = [
      "email,plan,card_token,collection_method",
      `link@example.com,Pro,${tokens[0]},send_payment_link`,
      `card@example.com,Pro,${tokens[1]},`,
      `default@example.com,Links,${t3},`,
      `forced@example.com,Links,${t4},charge_automatically`,
      `bad@example.com,Pro,${tokens[2]},cash`,
    ].join("\n");

    const report = await importSubscriptions(h.ctx, readImportCsv(file));
    expect(report).toMatchObject({ imported: 4, rejected: 1 });
    expect(report.rows.at(-1)).toMatchObject({
      line: 6,
      status: "rejected",
      error: "collection_method: expected one of charge_automatically, send_payment_link",
    });
    const subs = await h.ctx.db.$client<{ email: string; collection_method: string; card: boolean }[]>`
      select c.email, s.collection_method, s.payment_method_id is not null as card
      from subscriptions s join customers c on c.id = s.customer_id order by c.email`;
    expect(subs.map((s) => [s.email, s.collection_method, s.card])).toEqual([
      ["card@example.com", "charge_automatically", true],
      ["default@example.com", "send_payment_link", true],
      ["forced@example.com", "charge_automatically", true],
      ["link@example.com", "send_payment_link", true],
    ]);
    const imported = await h.ctx.db.$client<{ data: { collection_method: string } }[]>`
      select data from events where type = 'subscription.imported' order by id`;
    expect(imported.map((e) => e.data.collection_method).sort()).toEqual([
      "charge_automatically",
      "charge_automatically",
      "send_payment_link",
      "send_payment_link",
    ]);

    // A subscription imported to pay by link is billed by link: its card is not charged.
    const [link] = await h.ctx.db.$client<{ id: string }[]>`
      select s.id from subscriptions s join customers c on c.id = s.customer_id
      where c.email = 'link@example.com'`;
    await runBillingTick(h.ctx, { batchSize: 10 });
    const [charge] = await h.ctx.db.$client<{ id: string }[]>`
      select id from charges where subscription_id = ${link!.id}`;
    await processChargeBatch(h.ctx, [charge!.id]);
    const [after] = await h.ctx.db.$client<{ status: string }[]>`
      select status from charges where id = ${charge!.id}`;
    expect(after!.status).toBe("awaiting_payment");
    expect(await collections(h, tokens[0]!)).toEqual([]);
  });
});
