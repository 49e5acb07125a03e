import type { FastifyInstance } from "fastify";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "../../../src/apikeys/index.js";
import { buildServer } from "../../../src/app/index.js";
import type { SnakeCased } from "../../../src/http/ops/snake-json.js";
import type { OpsSnapshot } from "../../../src/ops/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { type BillingMonth, billAMonth, SCENARIO } from "./scenario.js";

/**
 * The ops dashboard over HTTP, after a month of billing through the simulator: its figures agree
 * with the ledger, it is closed to anyone without a session, and its actions go through the same
 * services as the API, guarded by the session's CSRF token and the key's scope. data.json is
 * snake_case, as the rest of the API.
 */
describe("the ops dashboard", () => {
  let h: EngineHarness;
  let app: FastifyInstance;
  let month: BillingMonth;
  let fullKey: string;

  beforeAll(async () => {
    h = await createEngineHarness({ gatewayTimeoutMs: 2000 });
    h.ctx.config = { ...h.ctx.config, RECONCILE_MAX_TRIES: 3, OPS_CACHE_SECONDS: 0 };
    month = await billAMonth(h);
    app = buildServer(h.ctx);
    await app.ready();
    fullKey = (await createApiKey(h.ctx.db, { name: "ops alice" })).key;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  async function login(key: string) {
    const reply = await app.inject({
      method: "POST",
      url: "/ops/login",
      payload: form({ key }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const cookie = String(reply.headers["set-cookie"] ?? "").split(";")[0] ?? "";
    return { reply, cookie };
  }

  async function page(cookie: string, url: string) {
    return app.inject({ method: "GET", url, headers: { cookie } });
  }

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const snapshotOf = (reply: { json: <T>() => T }) => reply.json<SnakeCased<OpsSnapshot>>();

  it("is closed without a session, and refuses a wrong key", async () => {
    for (const url of ["/ops", "/ops/data.json", `/ops/charges/${month.heldChargeId}`]) {
      const reply = await app.inject({ method: "GET", url });
      expect(reply.statusCode, url).toBe(303);
      expect(reply.headers.location).toBe("/ops/login");
    }
    const post = await app.inject({ method: "POST", url: `/ops/charges/${month.heldChargeId}/reconcile` });
    expect(post.statusCode).toBe(303);
    const { reply } = await login("bk_not-a-real-key");
    expect(reply.statusCode).toBe(401);
    expect(reply.body).toContain("That API key is not valid.");
    expect(reply.headers["set-cookie"]).toBeUndefined();
  });

  it("logs in with an API key into an HttpOnly, SameSite=Strict session scoped to /ops", async () => {
    const { reply } = await login(fullKey);
    expect(reply.statusCode).toBe(303);
    expect(reply.headers.location).toBe("/ops");
    expect(String(reply.headers["set-cookie"])).toMatch(
      /^billing_ops=[\w-]{43}; Path=\/ops; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
  });

  it("shows figures that agree with the month's ledger", async () => {
    const { cookie } = await login(fullKey);
    const reply = await page(cookie, "/ops/data.json?range=90d");
    expect(reply.statusCode).toBe(200);
    // Every key snake_case, at every level.
    expect(reply.body).not.toMatch(/"\w*[A-Z]\w*":/);
    const s = snapshotOf(reply);
    const paid = SCENARIO.approves + SCENARIO.declinesTwice;
    expect(s.currency).toBe("QAR");
    expect(s.collections.totals.paid).toEqual({ count: paid, amount_minor: paid * 10_000 });
    // Every one of them by card: no link went out, none waits on a customer.
    expect(s.payment_links.collected).toEqual({
      card: { count: paid, amount_minor: paid * 10_000 },
      link: { count: 0, amount_minor: 0 },
    });
    expect(s.payment_links.funnel).toMatchObject({ sent: { count: 0, amount_minor: 0 }, paid_rate: null });
    expect(s.payment_links.awaiting).toEqual({ count: 0, oldest_sent_at: null, by_currency: [] });
    // Two declines before each recovery, and the always-declined cards' first try and 4 retries.
    expect(s.collections.totals.declined.count).toBe(
      SCENARIO.declinesTwice * 2 + SCENARIO.alwaysDeclines * 5,
    );
    expect(s.funnel.entered.count).toBe(SCENARIO.declinesTwice + SCENARIO.alwaysDeclines);
    expect(s.funnel.recovered.count).toBe(SCENARIO.declinesTwice);
    expect(s.funnel.recovered_by_retry).toEqual([
      { retry: 1, count: 0, amount_minor: 0 },
      { retry: 2, count: SCENARIO.declinesTwice, amount_minor: SCENARIO.declinesTwice * 10_000 },
    ]);
    expect(s.funnel.invoiced.count).toBe(SCENARIO.alwaysDeclines);
    expect(s.funnel.recovery_rate).toBeCloseTo(
      SCENARIO.declinesTwice / (SCENARIO.declinesTwice + SCENARIO.alwaysDeclines),
    );
    expect(s.subscriptions.counts.active).toBe(paid + 1);
    expect(s.subscriptions.counts.unpaid).toBe(SCENARIO.alwaysDeclines);
    // MRR counts active and past_due: 100.00 a month each.
    expect(s.subscriptions.mrr).toEqual([{ currency: "QAR", amount_minor: (paid + 1) * 10_000 }]);
    // No plan meters usage: nothing of Collected is usage (read-models.test.ts counts some).
    expect(s.usage_revenue).toEqual({ paid: [] });
    expect(s.attention.held_charges.total).toBe(1);
    expect(s.attention.held_charges.items[0]?.charge_id).toBe(month.heldChargeId);
    expect(s.attention.uncollectible_charges.total).toBe(SCENARIO.alwaysDeclines);
    // Since when, on the billing clock, which began the month at the harness's start: not the
    // wall clock, months ahead of it.
    const listed = [...s.attention.held_charges.items, ...s.attention.uncollectible_charges.items];
    for (const { since } of listed) {
      const at = DateTime.fromISO(since ?? "");
      expect(at >= DateTime.fromISO("2026-01-15T09:00:00Z") && at <= h.clock.now(), String(since)).toBe(true);
    }
    expect(s.upcoming.renewals.find((r) => r.within === "7d")?.count).toBe(paid);
    expect(s.queue.queues.map((q) => q.queue)).toContain("charges");
    expect(s.breaker.open).toBe(false);
  });

  it("renders the page with its charts' data, the held charge and its action, under a strict CSP", async () => {
    const { cookie } = await login(fullKey);
    const reply = await page(cookie, "/ops?range=30d");
    expect(reply.statusCode).toBe(200);
    expect(reply.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(reply.headers["cache-control"]).toBe("no-store");
    expect(reply.headers["x-frame-options"]).toBe("DENY");
    const html = reply.body;
    for (const id of [
      "chart-collections",
      "chart-funnel",
      "chart-statuses",
      "chart-queues",
      "ops-data",
      "collected-by-method",
      "link-funnel",
      "awaiting-payment",
      "kpi-usage",
    ]) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).not.toMatch(/<script>(?!<\/script>)|style="/); // no inline script or style
    expect(html).toContain(`action="/ops/charges/${month.heldChargeId}/reconcile"`);
    // Times in the billing time zone the picker names, and the lists' say whose clock they are on.
    const zone = h.ctx.config.BILLING_TIMEZONE;
    const asOf = /figures as of <span class="nowrap">([^<]+)<\/span>/.exec(html)?.[1] ?? "";
    const shown = DateTime.fromFormat(asOf, "yyyy-MM-dd HH:mm", { zone });
    expect(Math.abs(shown.diff(h.clock.now(), "minutes").minutes), asOf).toBeLessThan(2);
    expect(html).toContain(`<th title="Billing clock, ${zone} time">Since</th>`);
    // The readiness checks, as /readyz gives them.
    expect(html).toContain('<tr data-check="database"><td>database</td><td class="check-ok">ok</td>');
    for (const check of ["queue", "gateway", "tick", "gateway_breaker"]) {
      expect(html).toContain(`<tr data-check="${check}">`);
    }
    const assets = await Promise.all(
      ["chart.umd.min.js", "ops.js", "ops.css"].map((name) => app.inject({ url: `/ops/assets/${name}` })),
    );
    expect(assets.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(assets[0]?.body).toContain("Chart");
  });

  it("refuses an action without the session's CSRF token, or from another site", async () => {
    const { cookie } = await login(fullKey);
    const url = `/ops/charges/${month.heldChargeId}/reconcile`;
    const headers = { "content-type": "application/x-www-form-urlencoded", cookie };
    const forged = await app.inject({
      method: "POST",
      url,
      headers,
      payload: form({ csrf: "x".repeat(43) }),
    });
    expect(forged.statusCode).toBe(403);
    const csrf = csrfOf((await page(cookie, "/ops")).body);
    const crossSite = await app.inject({
      method: "POST",
      url,
      headers: { ...headers, origin: "https://evil.example", host: "localhost:80" },
      payload: form({ csrf }),
    });
    expect(crossSite.statusCode).toBe(403);
    const held = await page(cookie, `/ops/charges/${month.heldChargeId}`);
    expect(held.body).toContain('id="charge-status" class="status-needs_review"');
  });

  it("a read-only key sees no action and may not take one", async () => {
    const { key } = await createApiKey(h.ctx.db, { name: "ops viewer", readOnly: true });
    const { cookie } = await login(key);
    const html = (await page(cookie, "/ops")).body;
    expect(html).toContain("ops viewer");
    expect(html).not.toContain(`action="/ops/charges/${month.heldChargeId}/reconcile"`);
    const reply = await app.inject({
      method: "POST",
      url: `/ops/charges/${month.heldChargeId}/reconcile`,
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      payload: form({ csrf: csrfOf(html) }),
    });
    expect(reply.statusCode).toBe(403);
  });

  it("reconciles the held charge from its button: the gateway had the payment, so it is paid", async () => {
    const { cookie } = await login(fullKey);
    const csrf = csrfOf((await page(cookie, "/ops")).body);
    const reply = await app.inject({
      method: "POST",
      url: `/ops/charges/${month.heldChargeId}/reconcile`,
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      payload: form({ csrf }),
    });
    expect(reply.statusCode).toBe(303);
    expect(reply.headers.location).toBe(`/ops/charges/${month.heldChargeId}?done=reconcile-paid`);
    const after = await page(cookie, String(reply.headers.location));
    expect(after.body).toContain("Reconciled: the gateway had taken the payment; the charge is paid.");
    expect(after.body).toContain('id="charge-status" class="status-paid"');
    const [event] = await h.ctx.db.$client<{ actor: string }[]>`
      select actor from events where charge_id = ${month.heldChargeId} and type = 'charge.succeeded'`;
    expect(event?.actor).toMatch(/^ops:[0-9a-f-]{36}$/);
  });

  it("ends every session of a key the moment the key is revoked, and at logout", async () => {
    const created = await createApiKey(h.ctx.db, { name: "ops temp" });
    const first = await login(created.key);
    const second = await login(created.key);
    expect((await page(first.cookie, "/ops")).statusCode).toBe(200);
    const csrf = csrfOf((await page(second.cookie, "/ops")).body);
    const out = await app.inject({
      method: "POST",
      url: "/ops/logout",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: second.cookie },
      payload: form({ csrf }),
    });
    expect(out.statusCode).toBe(303);
    expect((await page(second.cookie, "/ops")).statusCode).toBe(303);
    expect((await page(first.cookie, "/ops")).statusCode).toBe(200);
    await revokeApiKey(h.ctx.db, created.id);
    expect((await page(first.cookie, "/ops")).statusCode).toBe(303);
  });

  it("shows usage paid apart from MRR, as a part of Collected", async () => {
    const { cookie } = await login(fullKey);
    const read = async () => snapshotOf(await page(cookie, "/ops/data.json?range=30d"));
    const before = await read();
    const { subscriptionId, planId } = month.approved[0]!;
    const paidAt = h.clock.now().minus({ hours: 1 });
    await h.ctx.db.$client`
      insert into charges (subscription_id, plan_id, kind, period_start, period_end, amount_minor, currency, status,
        attempt_count, paid_at, paid_transaction_id)
      values (${subscriptionId}, ${planId}, 'usage', ${paidAt.minus({ months: 1 }).toISO()}::timestamptz,
              ${paidAt.toISO()}::timestamptz, 2345, 'QAR', 'paid', 1, ${paidAt.toISO()}::timestamptz, 'usage-ops-1')`;
    const after = await read();
    expect(after.usage_revenue).toEqual({ paid: [{ currency: "QAR", count: 1, amount_minor: 2_345 }] });
    expect(after.collections.totals.paid.amount_minor - before.collections.totals.paid.amount_minor).toBe(
      2_345,
    );
    expect(after.subscriptions.mrr).toEqual(before.subscriptions.mrr);
    const html = (await page(cookie, "/ops?range=30d")).body;
    expect(html).toMatch(/id="kpi-usage"><div class="label">Usage paid<\/div><div class="value">23.45 QAR</);
  });

  it("answers a bad range with a 400 naming it", async () => {
    const { cookie } = await login(fullKey);
    const reply = await page(cookie, "/ops?from=2026-13-01");
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toContain("from");
  });
});
