import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { runCli } from "../../../src/cli/index.js";
import { chargeAttempts } from "../../../src/db/schema/index.js";
import { createPortalLink } from "../../../src/portal/index.js";
import { type ApiHarness, activeSubscription, createApiHarness, paidCharge } from "../api/support.js";

/**
 * A refunded charge stays `paid`, and reads as refunded wherever a charge is shown: the merchant API
 * (refund_status, refund_processing, refunded_minor), the CLI, the ops charge page and the customer
 * portal; GET /v1/refunds and `billing refunds` list every refund. Refunds go through the simulator
 * over HTTP: completed, under_processing (after the payment's first midnight), lost (unknown) and
 * refused (failed).
 */

let api: ApiHarness;
let customerId: string;
let dataDir: string;
/** One paid charge of 100.00 QAR per refund outcome, and one never refunded. */
const charge = { completed: "", processing: "", pending: "", failed: "", untouched: "" };
const refundIds = { completed: "", processing: "", pending: "" };

beforeAll(async () => {
  api = await createApiHarness();
  dataDir = await mkdtemp(path.join(tmpdir(), "billing-refunds-"));
  const subscription = await activeSubscription(api, "refunds-shown@example.qa");
  customerId = subscription.customerId;
  let months = 0;
  for (const name of Object.keys(charge) as (keyof typeof charge)[]) {
    months += 1;
    charge[name] = await paidCharge(api, subscription.subscriptionId, months);
  }
}, 60_000);
afterAll(async () => {
  await api?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const refund = (chargeId: string) => api.call("POST", `/v1/charges/${chargeId}/refund`);
const getCharge = async (chargeId: string) => (await api.call("GET", `/v1/charges/${chargeId}`)).json();

describe("the merchant API", () => {
  it("shows a charge refunded, processing, pending or failed, and one never refunded as such", async () => {
    const completed = await refund(charge.completed);
    expect(completed.json()).toMatchObject({ refund_status: "completed" });
    refundIds.completed = completed.json().id;

    // Past the payment's first midnight the gateway accepts a refund after settlement.
    api.h.clock.advance({ days: 1 });
    const processing = await refund(charge.processing);
    expect(processing.json()).toMatchObject({ refund_status: "under_processing" });
    refundIds.processing = processing.json().id;

    await api.h.simAdmin("POST", "/_sim/faults", {
      operation: "refund_v1",
      kind: "apply_then_drop",
      times: 1,
    });
    const pending = await refund(charge.pending);
    expect(pending.statusCode).toBe(202);
    refundIds.pending = pending.json().id;

    // Refunded behind the engine's back: the gateway refuses ours, which is recorded as failed.
    const [attempt] = await api.h.ctx.db
      .select()
      .from(chargeAttempts)
      .where(eq(chargeAttempts.chargeId, charge.failed));
    await api.h.ctx.gateway.v1.refund({
      transactionId: attempt!.gatewayTransactionId!,
      orderId: attempt!.orderId,
    });
    expect((await refund(charge.failed)).json()).toMatchObject({ code: "refund_refused" });

    const shown = async (chargeId: string) => {
      const { status, refund_status, refund_processing, refunded_minor } = await getCharge(chargeId);
      return { status, refund_status, refund_processing, refunded_minor };
    };
    const expected = (refund_status: string | null, refunded_minor: number, refund_processing = false) => ({
      status: "paid",
      refund_status,
      refund_processing,
      refunded_minor,
    });
    expect(await shown(charge.completed)).toEqual(expected("refunded", 10_000));
    expect(await shown(charge.processing)).toEqual(expected("refunded", 10_000, true));
    expect(await shown(charge.pending)).toEqual(expected("refund_pending", 0));
    expect(await shown(charge.failed)).toEqual(expected("refund_failed", 0));
    expect(await shown(charge.untouched)).toEqual(expected(null, 0));

    // The list presents charges the same way (its replies are checked against the schema).
    const list = await api.call("GET", "/v1/charges?limit=100");
    expect(list.statusCode).toBe(200);
    const byId = new Map(list.json().data.map((c: { id: string }) => [c.id, c]));
    expect(byId.get(charge.completed)).toMatchObject({ refund_status: "refunded", refunded_minor: 10_000 });
    expect(byId.get(charge.untouched)).toMatchObject({ refund_status: null, refunded_minor: 0 });
  });

  it("lists refunds oldest first, by charge, status and reason, a page at a time", async () => {
    const ids = async (query: string) => {
      const reply = await api.call("GET", `/v1/refunds${query}`);
      expect(reply.statusCode, query).toBe(200);
      return reply.json().data.map((r: { id: string }) => r.id);
    };
    const all = await api.call("GET", "/v1/refunds");
    expect(all.json().has_more).toBe(false);
    expect(all.json().data.map((r: { charge_id: string }) => r.charge_id)).toEqual([
      charge.completed,
      charge.processing,
      charge.pending,
      charge.failed,
    ]);
    expect(all.json().data[0]).toMatchObject({
      id: refundIds.completed,
      reason: "requested",
      refund_status: "completed",
      amount: { amount: "100.00", amount_minor: 10_000, currency: "QAR" },
      settled_at: expect.any(String),
    });

    expect(await ids(`?charge_id=${charge.completed}`)).toEqual([refundIds.completed]);
    expect(await ids(`?charge_id=${charge.untouched}`)).toEqual([]);
    expect(await ids("?status=under_processing")).toEqual([refundIds.processing]);
    expect(await ids("?status=unknown")).toEqual([refundIds.pending]);
    expect(await ids("?status=failed")).toHaveLength(1);
    expect(await ids("?reason=requested")).toHaveLength(4);
    expect(await ids("?reason=duplicate")).toEqual([]);
    expect(await ids(`?status=completed&charge_id=${charge.processing}`)).toEqual([]);

    const first = await api.call("GET", "/v1/refunds?limit=2");
    expect(first.json()).toMatchObject({ has_more: true });
    const next = await api.call("GET", `/v1/refunds?limit=2&starting_after=${first.json().data[1].id}`);
    expect(next.json().has_more).toBe(false);
    expect([...first.json().data, ...next.json().data].map((r: { id: string }) => r.id)).toEqual(
      all.json().data.map((r: { id: string }) => r.id),
    );

    const one = await api.call("GET", `/v1/refunds/${refundIds.processing}`);
    expect(one.json()).toMatchObject({ id: refundIds.processing, charge_id: charge.processing });
    expect((await api.call("GET", `/v1/refunds/${randomUUID()}`)).statusCode).toBe(404);
    const bad = await api.call("GET", "/v1/refunds?status=refunded");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ field: "status", location: "query" })]);
  });

  it("lets a read-only key list and read refunds", async () => {
    const { key } = await createApiKey(api.h.ctx.db, { name: "refund reports", readOnly: true });
    expect((await api.call("GET", "/v1/refunds", { key })).statusCode).toBe(200);
    expect((await api.call("GET", `/v1/refunds/${refundIds.completed}`, { key })).statusCode).toBe(200);
    expect((await api.call("POST", `/v1/charges/${charge.untouched}/refund`, { key })).statusCode).toBe(403);
  });
});

describe("the CLI", () => {
  async function billing(...args: string[]) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const env = {
      NODE_ENV: "test",
      DATABASE_URL: api.h.ctx.config.DATABASE_URL,
      BILLING_DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
    };
    const code = await runCli(args, { stdout, stderr, env });
    return { code, stdout: stdout.read()?.toString() ?? "", stderr: stderr.read()?.toString() ?? "" };
  }
  async function json<T = Record<string, unknown>>(...args: string[]): Promise<T> {
    const run = await billing(...args, "--json");
    if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
    return JSON.parse(run.stdout) as T;
  }

  it("prints a charge and its subscription with --json as the merchant API shows them", async () => {
    const shown = await getCharge(charge.processing);
    expect(await json("charges", "show", charge.processing)).toEqual(shown);
    const subscription = await api.call("GET", `/v1/subscriptions/${shown.subscription_id}`);
    expect(await json("subscriptions", "show", shown.subscription_id)).toEqual(subscription.json());
  });

  it("shows a charge's refund in charges show and list", async () => {
    expect(await json("charges", "show", charge.processing)).toMatchObject({
      status: "paid",
      refund_status: "refunded",
      refund_processing: true,
      refunded_minor: 10_000,
    });
    expect(await json("charges", "show", charge.untouched)).toMatchObject({
      refund_status: null,
      refunded_minor: 0,
    });
    const listed = await json<{ data: { id: string; refund_status: string | null }[] }>("charges", "list");
    expect(listed.data.map((c) => [c.id, c.refund_status])).toEqual(
      expect.arrayContaining([
        [charge.completed, "refunded"],
        [charge.pending, "refund_pending"],
        [charge.failed, "refund_failed"],
        [charge.untouched, null],
      ]),
    );

    // A person reads the amount refunded as a decimal too.
    const human = await billing("charges", "show", charge.completed);
    expect(human.stdout).toMatch(/^refund_status\s+refunded$/m);
    expect(human.stdout).toMatch(/^refunded\s+100\.00$/m);
    const table = await billing("charges", "list");
    expect(table.stdout.split("\n")[0]).toMatch(/\brefund_status\s+refunded\b/);
  });

  it("lists and shows refunds, with filters, as JSON or a table", async () => {
    type Listed = { data: { id: string; charge_id: string; status: string; amount: string }[] };
    const all = await json<Listed>("refunds", "list");
    expect(all.data.map((r) => r.charge_id)).toEqual([
      charge.completed,
      charge.processing,
      charge.pending,
      charge.failed,
    ]);
    expect((await json<Listed>("refunds", "list", "--charge", charge.completed)).data).toEqual([
      expect.objectContaining({ id: refundIds.completed, status: "completed", amount: "100.00" }),
    ]);
    expect((await json<Listed>("refunds", "list", "--status", "unknown")).data.map((r) => r.id)).toEqual([
      refundIds.pending,
    ]);
    expect((await json<Listed>("refunds", "list", "--reason", "duplicate")).data).toEqual([]);
    expect(await json("refunds", "show", refundIds.processing)).toMatchObject({
      id: refundIds.processing,
      charge_id: charge.processing,
      status: "under_processing",
      amount_minor: 10_000,
      currency: "QAR",
    });

    const table = await billing("refunds", "list", "--status", "completed");
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^id\s+charge_id\s+reason\s+status\s+amount/);
    expect(table.stdout).toContain(refundIds.completed);
    const shown = await billing("refunds", "show", refundIds.completed);
    expect(shown.stdout).toMatch(/^status\s+completed$/m);

    const wrong = await billing("refunds", "list", "--status", "refunded");
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--status");
    const missing = await billing("refunds", "show", randomUUID());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: no refund with id/);
  });
});

describe("the ops charge page", () => {
  it("says whether the charge was refunded, and how much", async () => {
    const { key } = await createApiKey(api.h.ctx.db, { name: "ops" });
    const login = await api.app.inject({
      method: "POST",
      url: "/ops/login",
      payload: new URLSearchParams({ key }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const cookie = String(login.headers["set-cookie"]).split(";")[0] ?? "";
    const page = async (chargeId: string) =>
      (await api.app.inject({ url: `/ops/charges/${chargeId}`, headers: { cookie } })).body;

    const refunded = await page(charge.completed);
    expect(refunded).toContain('id="charge-status" class="status-paid"');
    expect(refunded).toMatch(
      /data-refund-status="refunded">[^<]*<span class="refund-refunded">Refunded 100\.00 QAR</,
    );
    // Refunded already: no Refund button.
    expect(refunded).not.toContain(`/ops/charges/${charge.completed}/refund`);
    expect(await page(charge.processing)).toContain(
      "Refunded 100.00 QAR (the gateway is still returning the money)",
    );
    expect(await page(charge.pending)).toContain('data-refund-status="refund_pending"');
    // A failed refund may be asked again; a charge never refunded may be refunded.
    expect(await page(charge.failed)).toContain(`href="/ops/charges/${charge.failed}/refund"`);
    const untouched = await page(charge.untouched);
    expect(untouched).toContain('data-refund-status="none"');
    expect(untouched).toContain(`href="/ops/charges/${charge.untouched}/refund"`);
  });
});

describe("the customer portal", () => {
  it("shows the customer which charges were refunded, in English and Arabic", async () => {
    const link = await createPortalLink(api.h.ctx, { customerId, actor: "test" });
    const opened = await api.app.inject({
      method: "POST",
      url: "/portal/open",
      payload: new URLSearchParams({ token: new URL(link.url).searchParams.get("token") ?? "" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(opened.statusCode).toBe(303);
    const cookie = String(opened.headers["set-cookie"]).split(";")[0] ?? "";
    const portal = async (lang: string) =>
      (await api.app.inject({ url: `/portal?lang=${lang}`, headers: { cookie } })).body;
    const rowOf = (page: string, chargeId: string) =>
      new RegExp(`<tr data-charge="${chargeId}">[\\s\\S]*?</tr>`).exec(page)?.[0] ?? "";

    const en = await portal("en");
    const completed = rowOf(en, charge.completed);
    expect(completed).toContain('data-refund-status="refunded">Refunded</span>');
    expect(completed).toContain('<span class="num" dir="ltr">100.00 QAR</span> refunded');
    expect(rowOf(en, charge.processing)).toContain("refunded; your bank may take a few days to show it.");
    expect(rowOf(en, charge.pending)).toContain(
      'data-refund-status="refund_pending">Refund requested</span>',
    );
    expect(rowOf(en, charge.failed)).toContain('data-refund-status="refund_failed">Refund failed</span>');
    const untouched = rowOf(en, charge.untouched);
    expect(untouched).toContain('<span class="status status-paid">Paid</span>');
    expect(untouched).not.toContain("data-refund-status");

    const ar = await portal("ar");
    expect(rowOf(ar, charge.completed)).toContain('data-refund-status="refunded">تم الاسترداد</span>');
  });
});
