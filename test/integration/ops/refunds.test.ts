import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { refunds } from "../../../src/db/schema/index.js";
import type { SnakeCased } from "../../../src/http/ops/snake-json.js";
import type { OpsSnapshot } from "../../../src/ops/index.js";
import { reconcileRefund } from "../../../src/refunds/index.js";
import { type ApiHarness, activeSubscription, createApiHarness, paidCharge } from "../api/support.js";

/**
 * Refunds on the ops dashboard, through the simulator over HTTP: the charge page's Refund button
 * asks for confirmation in a page of its own (the charge pages load no script) and only the
 * confirmed form refunds; Collected is the money paid less the money refunded, by the day each
 * happened, with Refunded beside it, also over days already rolled up (ops_collection_days).
 */

let api: ApiHarness;
let chargeIds: string[];
let fullCookie: string;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

async function login(key: string): Promise<string> {
  const reply = await api.app.inject({
    method: "POST",
    url: "/ops/login",
    payload: form({ key }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  return String(reply.headers["set-cookie"]).split(";")[0] ?? "";
}

const get = (cookie: string, url: string) => api.app.inject({ url, headers: { cookie } });
const post = (cookie: string, url: string, fields: Record<string, string>) =>
  api.app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    payload: form(fields),
  });
const refundsOf = (chargeId: string) =>
  api.h.ctx.db.select().from(refunds).where(eq(refunds.chargeId, chargeId));

beforeAll(async () => {
  api = await createApiHarness();
  api.h.ctx.config = { ...api.h.ctx.config, OPS_CACHE_SECONDS: 0 };
  const { subscriptionId } = await activeSubscription(api, "ops-refunds@example.qa");
  chargeIds = [];
  for (let month = 1; month <= 4; month++) chargeIds.push(await paidCharge(api, subscriptionId, month));
  fullCookie = await login((await createApiKey(api.h.ctx.db, { name: "ops alice" })).key);
}, 60_000);
afterAll(() => api?.close());

describe("the Refund button", () => {
  it("asks for confirmation in a page, without a script, and refunds only once confirmed", async () => {
    const [chargeId] = chargeIds as [string];
    const page = await get(fullCookie, `/ops/charges/${chargeId}`);
    // A plain link to the confirmation page: no form on the charge page posts a refund.
    expect(page.body).toContain(
      `<a class="act danger" href="/ops/charges/${chargeId}/refund" data-action="refund">`,
    );
    expect(page.body).not.toContain(`action="/ops/charges/${chargeId}/refund"`);
    expect(page.body).not.toContain("<script");
    const csrf = csrfOf(page.body);

    // A POST without confirm=yes (an old form, a hand-made request) only asks.
    const unconfirmed = await post(fullCookie, `/ops/charges/${chargeId}/refund`, { csrf });
    expect(unconfirmed.statusCode).toBe(303);
    expect(unconfirmed.headers.location).toBe(`/ops/charges/${chargeId}/refund`);
    expect(await refundsOf(chargeId)).toEqual([]);
    // Confirmed but without the session's CSRF token: refused.
    const forged = await post(fullCookie, `/ops/charges/${chargeId}/refund`, { confirm: "yes" });
    expect(forged.statusCode).toBe(403);
    expect(await refundsOf(chargeId)).toEqual([]);

    const confirm = await get(fullCookie, `/ops/charges/${chargeId}/refund`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(confirm.body).not.toContain("<script");
    expect(confirm.body).toContain("<h1>Refund 100.00 QAR?</h1>");
    expect(confirm.body).toContain(
      "This returns the whole payment; the gateway does not refund part of a payment.",
    );
    expect(confirm.body).toContain(`<form method="post" action="/ops/charges/${chargeId}/refund"`);
    expect(confirm.body).toContain('<input type="hidden" name="confirm" value="yes">');
    expect(confirm.body).toContain(`<a id="confirm-no" href="/ops/charges/${chargeId}">`);
    expect(await refundsOf(chargeId)).toEqual([]);

    const confirmed = await post(fullCookie, `/ops/charges/${chargeId}/refund`, {
      csrf: csrfOf(confirm.body),
      confirm: "yes",
    });
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(`/ops/charges/${chargeId}?done=refund-completed`);
    const done = await refundsOf(chargeId);
    expect(done).toEqual([expect.objectContaining({ status: "completed", amountMinor: 10_000 })]);
    expect(done[0]?.requestedBy).toMatch(/^ops:[0-9a-f-]{36}$/);

    const after = await get(fullCookie, String(confirmed.headers.location));
    expect(after.body).toContain('<p class="banner" id="notice" role="status">Refunded.</p>');
    expect(after.body).toContain('data-refund-status="refunded"');
    expect(after.body).not.toContain(`/ops/charges/${chargeId}/refund"`);
    // Asked again (a second tab, the back button): it says why instead of asking.
    const again = await get(fullCookie, `/ops/charges/${chargeId}/refund`);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`/ops/charges/${chargeId}?done=refused-refund_exists`);
    const twice = await post(fullCookie, `/ops/charges/${chargeId}/refund`, {
      csrf: csrfOf(confirm.body),
      confirm: "yes",
    });
    expect(twice.headers.location).toBe(`/ops/charges/${chargeId}?done=refused-refund_exists`);
    expect(await refundsOf(chargeId)).toHaveLength(1);
  });

  it("is neither shown nor asked nor done for a read-only key", async () => {
    const chargeId = chargeIds[1] as string;
    const cookie = await login((await createApiKey(api.h.ctx.db, { name: "viewer", readOnly: true })).key);
    const page = await get(cookie, `/ops/charges/${chargeId}`);
    expect(page.body).not.toContain(`/ops/charges/${chargeId}/refund`);
    expect((await get(cookie, `/ops/charges/${chargeId}/refund`)).statusCode).toBe(403);
    const reply = await post(cookie, `/ops/charges/${chargeId}/refund`, {
      csrf: csrfOf(page.body),
      confirm: "yes",
    });
    expect(reply.statusCode).toBe(403);
    expect(await refundsOf(chargeId)).toEqual([]);
  });
});

describe("collections net of refunds", () => {
  const snapshot = async (range: string) =>
    (await get(fullCookie, `/ops/data.json?range=${range}`)).json<SnakeCased<OpsSnapshot>>();

  /** What the ledger holds: paid charges' money less completed and under_processing refunds. */
  async function ledger() {
    const [row] = await api.h.ctx.db.$client<{ paid: string; refunded: string }[]>`
      select (select coalesce(sum(amount_minor), 0) from charges where status = 'paid')::text as paid,
             (select coalesce(sum(amount_minor), 0) from refunds
               where status in ('completed', 'under_processing'))::text as refunded`;
    return { paid: Number(row?.paid), refunded: Number(row?.refunded) };
  }

  it("takes refunds off Collected by the day the gateway took them, and shows them beside it", async () => {
    const [, second, third] = chargeIds as [string, string, string, string];
    // The next day the gateway accepts a refund after settlement (under_processing): it counts.
    api.h.clock.advance({ days: 1 });
    const processing = await api.call("POST", `/v1/charges/${second}/refund`);
    expect(processing.json()).toMatchObject({ refund_status: "under_processing" });
    // A refund whose answer was lost may not have happened: it does not count yet.
    await api.h.simAdmin("POST", "/_sim/faults", {
      operation: "refund_v1",
      kind: "apply_then_drop",
      times: 1,
    });
    const lost = await api.call("POST", `/v1/charges/${third}/refund`);
    expect(lost.statusCode).toBe(202);
    // Both days close, so the payments come from the stored rollup and the refunds from their scan.
    api.h.clock.advance({ days: 3 });

    const s = await snapshot("30d");
    expect(s.collections.totals).toMatchObject({
      paid: { count: 4, amount_minor: 40_000 },
      refunded: { count: 2, amount_minor: 20_000 },
      collected: { amount_minor: 20_000 },
    });
    const { paid, refunded } = await ledger();
    expect(s.collections.totals.collected.amount_minor).toBe(paid - refunded);
    const days = s.collections.buckets.filter((b) => b.paid.count > 0 || b.refunded.count > 0);
    expect(
      days.map((b) => [
        b.start.slice(0, 10),
        b.paid.amount_minor,
        b.refunded.amount_minor,
        b.collected.amount_minor,
      ]),
    ).toEqual([
      ["2026-01-15", 40_000, 10_000, 30_000],
      ["2026-01-16", 0, 10_000, -10_000],
    ]);
    const stored = await api.h.ctx.db.$client<{ day: string; paid_amount_minor: string }[]>`
      select day::text, paid_amount_minor::text from ops_collection_days where paid_count > 0`;
    expect(stored).toEqual([{ day: "2026-01-15", paid_amount_minor: "40000" }]);

    // The reconciler finds the lost refund taken at the gateway (today: days late); a new one goes
    // through today too.
    const reconciled = await reconcileRefund(api.h.ctx, lost.json().id, { quietPeriodMs: 0 });
    expect(reconciled).toMatchObject({ kind: "settled", refund: { status: "under_processing" } });
    await api.call("POST", `/v1/charges/${chargeIds[3]}/refund`);
    const later = await snapshot("30d");
    expect(later.collections.totals).toMatchObject({
      paid: { count: 4, amount_minor: 40_000 },
      refunded: { count: 4, amount_minor: 40_000 },
      collected: { amount_minor: 0 },
    });
    const now = await ledger();
    expect(later.collections.totals.collected.amount_minor).toBe(now.paid - now.refunded);
    // The card and link split stays what was paid; the table takes the refunds off it.
    expect(later.payment_links.collected.card).toEqual({ count: 4, amount_minor: 40_000 });
  });

  it("shows Refunded beside Collected on the page and in the chart's data", async () => {
    const html = (await get(fullCookie, "/ops?range=30d")).body;
    const kpi = (id: string) =>
      new RegExp(
        `<div class="kpi" id="kpi-${id}"><div class="label">([^<]*)</div><div class="value">([^<]*)</div>`,
      )
        .exec(html)
        ?.slice(1);
    expect(kpi("collected")).toEqual(["Collected", "0.00 QAR"]);
    expect(kpi("refunded")).toEqual(["Refunded", "400.00 QAR"]);
    expect(html).toContain(
      '<tr data-method="refunded"><td>Refunded</td><td class="num">4</td><td class="num">−400.00 QAR</td></tr>',
    );
    const data = JSON.parse(
      /<script type="application\/json" id="ops-data">([^<]*)<\/script>/.exec(html)?.[1] ?? "{}",
    );
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(sum(data.collections.collected_amount)).toBe(0);
    expect(sum(data.collections.refunded_amount)).toBe(40_000);
  });
});
