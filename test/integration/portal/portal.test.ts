import { createHash } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAddon, setSubscriptionAddon } from "../../../src/addons/index.js";
import { startServer } from "../../../src/app/index.js";
import { paymentLinkUrl } from "../../../src/charging/index.js";
import {
  enrollments,
  events,
  planChanges,
  plans,
  portalLinks,
  portalSessions,
  subscriptions,
} from "../../../src/db/schema/index.js";
import { changePlan } from "../../../src/plan-changes/index.js";
import { createMeter, ingestUsage, usageEventSchema } from "../../../src/usage/index.js";
import { setUsagePrice, usagePreview } from "../../../src/usage-billing/index.js";
import {
  type EnrollmentWorld,
  follow,
  pay,
  startEnrollmentWorld,
  subscriptionOf,
} from "../enrollment/support.js";
import {
  chargeOf,
  customerPayingByLink,
  linkFor,
  openLink,
  payingCustomer,
  secretOf,
  signIn,
} from "./support.js";

/**
 * The customer portal over HTTP: a magic link shows a button and opens, on its POST, once and
 * only before it expires (billing clock), so a mail scanner's GET uses nothing up; pages and actions need the session cookie, the form's CSRF token and a same-origin POST;
 * a customer acts only on their own subscriptions; canceling at period end (confirmed) and keeping
 * the subscription work through the pages; a subscription shows its add-ons and its usage so far.
 */
let world: EnrollmentWorld;
let alice: Awaited<ReturnType<typeof payingCustomer>>;
let bob: Awaited<ReturnType<typeof payingCustomer>>;

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

beforeAll(async () => {
  world = await startEnrollmentWorld();
  alice = await payingCustomer(world, { name: "Alice" });
  bob = await payingCustomer(world, { name: "Bob", language: "ar" });
}, 60_000);
afterAll(() => world?.close());

describe("magic links", () => {
  it("opens once, on the customer's click: a session cookie and a 303 on; only the secret's hash is stored", async () => {
    const link = await linkFor(world, alice.customerId);
    expect(link.url).toMatch(new RegExp(`^${world.server.url}/portal/open\\?token=[A-Za-z0-9_-]{43}$`));
    expect(link.expiresAt.toISO()).toBe(world.h.clock.now().plus({ minutes: 60 }).toISO());
    const [row] = await world.h.ctx.db
      .select()
      .from(portalLinks)
      .where(eq(portalLinks.tokenHash, sha256(secretOf(link.url))));
    expect(row).toMatchObject({ customerId: alice.customerId, createdBy: "test", usedAt: null });
    const stored = JSON.stringify(await world.h.ctx.db.select().from(portalLinks));
    expect(stored).not.toContain(secretOf(link.url));

    // A GET (the customer's, or a mail scanner's first) shows the button and uses nothing up.
    for (let fetched = 0; fetched < 2; fetched += 1) {
      const shown = await fetch(link.url, { redirect: "manual" });
      expect(shown.status).toBe(200);
      expect(shown.headers.get("set-cookie")).toBeNull();
      expect(shown.headers.get("referrer-policy")).toBe("same-origin");
      const form = await shown.text();
      expect(form).toContain('<form method="post" action="/portal/open?lang=en">');
      expect(form).toContain(`<input type="hidden" name="token" value="${secretOf(link.url)}">`);
    }
    const [unused] = await world.h.ctx.db
      .select()
      .from(portalLinks)
      .where(eq(portalLinks.tokenHash, sha256(secretOf(link.url))));
    expect(unused!.usedAt).toBeNull();

    const opened = await openLink(world, link.url);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe("/portal?lang=en");
    const cookie = opened.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(
      /^billing_portal=[A-Za-z0-9_-]{43}; Path=\/portal; HttpOnly; SameSite=Strict; Max-Age=1800$/,
    );
    const page = await fetch(`${world.server.url}/portal`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain("Hello, <bdi>Alice</bdi>");
    expect(html).toContain(`data-subscription="${alice.id}"`);
    expect(html).toContain('<span class="num" dir="ltr">100.00 QAR</span>');
    // A checkout's card has no digits to show (the gateway does not say them): when it was saved.
    expect(html).toContain('Saved on <bdi class="date">15 Jan 2026</bdi>');
    expect(html).toContain('<dt>Next billing</dt><dd><bdi class="date">15 Feb 2026</bdi></dd>');
    expect(html).toMatch(/<tr data-charge="[0-9a-f-]{36}"><td><bdi class="date">15 Jan 2026<\/bdi><\/td>/);
    expect(html).toContain(`<span class="num" dir="ltr">INV-${alice.id.slice(-8)}</span>`);
    expect(html).toContain(`href="https://invoices.example/${alice.id}"`);
    expect(html).not.toContain(`data-subscription="${bob.id}"`);

    for (const again of [await openLink(world, link.url), await fetch(link.url, { redirect: "manual" })]) {
      expect(again.status).toBe(410);
      expect(again.headers.get("set-cookie")).toBeNull();
      expect(await again.text()).toContain("Please ask us for a new link.");
    }
    expect(await world.h.ctx.db.select().from(portalSessions)).toHaveLength(1);
  });

  it("two opens at once make one session", async () => {
    const link = await linkFor(world, alice.customerId);
    const before = (await world.h.ctx.db.select().from(portalSessions)).length;
    const statuses = await Promise.all([1, 2, 3].map(async () => (await openLink(world, link.url)).status));
    expect(statuses.sort()).toEqual([303, 410, 410]);
    expect(await world.h.ctx.db.select().from(portalSessions)).toHaveLength(before + 1);
  });

  it("refuses to open a link from another site's form", async () => {
    const link = await linkFor(world, alice.customerId);
    const response = await fetch(`${world.server.url}/portal/open`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ token: secretOf(link.url) }).toString(),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect((await openLink(world, link.url)).status).toBe(303);
  });

  it("expires on the billing clock: a link and a session age with it", async () => {
    const link = await linkFor(world, bob.customerId);
    const browser = await signIn(world, bob.customerId);
    world.h.clock.advance({ minutes: 61 });
    const shown = await fetch(link.url, { redirect: "manual" });
    expect(shown.status).toBe(410);
    const page = await shown.text();
    // Bob reads Arabic: the refusal is in his language, right to left.
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain("يُرجى أن تطلب منا رابطاً جديداً");
    expect((await openLink(world, link.url)).status).toBe(410);
    const ended = await browser.get("/portal");
    expect(ended.status).toBe(401);
    expect(await ended.text()).toContain("Your session has ended");
  });

  it("refuses a tampered, a malformed or a missing secret", async () => {
    const link = await linkFor(world, alice.customerId);
    const secret = secretOf(link.url);
    const tampered = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    for (const token of [tampered, "short", `${secret}x`, ""]) {
      const shown = await fetch(`${world.server.url}/portal/open?token=${encodeURIComponent(token)}`, {
        redirect: "manual",
      });
      expect(shown.status).toBe(403);
      const posted = await openLink(world, link.url, token);
      expect(posted.status).toBe(403);
      expect(posted.headers.get("set-cookie")).toBeNull();
    }
    expect((await fetch(`${world.server.url}/portal/open`, { redirect: "manual" })).status).toBe(403);
    // The real one still opens: refusals did not use it up.
    expect((await openLink(world, link.url)).status).toBe(303);
  });
});

describe("pages and actions", () => {
  it("sends the portal's security headers", async () => {
    const browser = await signIn(world, alice.customerId);
    const page = await browser.get("/portal");
    expect(page.headers.get("content-security-policy")).toMatch(
      /^default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self' https: http:\/\/127\.0\.0\.1:\d+; frame-ancestors 'none'; base-uri 'none'$/,
    );
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await page.text();
    expect(html).not.toMatch(/<script|style=|<style/);
    const css = await browser.get("/portal/assets/portal.css");
    expect(css.status).toBe(200);
    expect(await css.text()).toContain("margin-inline");
  });

  it("needs the session cookie for every page and action", async () => {
    const browser = await signIn(world, alice.customerId);
    const csrf = await browser.csrf();
    browser.cookie = undefined;
    expect((await browser.get("/portal")).status).toBe(401);
    expect((await browser.get(`/portal/subscriptions/${alice.id}/cancel`)).status).toBe(401);
    const post = await browser.post(`/portal/subscriptions/${alice.id}/cancel`, { csrf, confirm: "yes" });
    expect(post.status).toBe(401);
    browser.cookie = "billing_portal=forged-secret-of-the-right-length-xxxxxxxxxxxxxxx";
    expect((await browser.get("/portal")).status).toBe(401);
    expect((await subscriptionOf(world.h, alice.id)).cancelAtPeriodEnd).toBe(false);
  });

  it("refuses a form without the session's CSRF token, and a POST from another site", async () => {
    const browser = await signIn(world, alice.customerId);
    const csrf = await browser.csrf();
    const other = await signIn(world, alice.customerId);
    const otherCsrf = await other.csrf();
    const path = `/portal/subscriptions/${alice.id}/cancel`;
    expect((await browser.post(path, { confirm: "yes" })).status).toBe(403);
    expect((await browser.post(path, { confirm: "yes", csrf: "x".repeat(43) })).status).toBe(403);
    // Another session's token (the same customer's) is not this session's.
    expect((await browser.post(path, { confirm: "yes", csrf: otherCsrf })).status).toBe(403);
    const crossSite = await browser.post(path, { confirm: "yes", csrf }, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toBe("cross-site request refused");
    const card = await browser.post(`/portal/subscriptions/${alice.id}/card`, { csrf: "nope" });
    expect(card.status).toBe(403);
    expect((await subscriptionOf(world.h, alice.id)).cancelAtPeriodEnd).toBe(false);
    const pending = await world.h.ctx.db
      .select()
      .from(enrollments)
      .where(eq(enrollments.subscriptionId, alice.id));
    expect(pending.filter((row) => row.status === "pending")).toEqual([]);
  });

  it("answers 404 for another customer's subscription, and changes nothing", async () => {
    const browser = await signIn(world, alice.customerId);
    const csrf = await browser.csrf();
    expect((await browser.get(`/portal/subscriptions/${bob.id}/cancel`)).status).toBe(404);
    for (const action of ["cancel", "resume", "card"]) {
      const response = await browser.post(`/portal/subscriptions/${bob.id}/${action}`, {
        csrf,
        confirm: "yes",
      });
      expect(response.status).toBe(404);
    }
    expect((await browser.post("/portal/subscriptions/not-a-uuid/cancel", { csrf })).status).toBe(404);
    const after = await subscriptionOf(world.h, bob.id);
    expect(after).toMatchObject({ status: "active", cancelAtPeriodEnd: false });
  });

  it("cancels at period end only after the confirmation, and keeps the subscription when asked", async () => {
    const browser = await signIn(world, alice.customerId);
    const csrf = await browser.csrf();
    const page = await (await browser.get("/portal")).text();
    expect(page).toContain(`href="/portal/subscriptions/${alice.id}/cancel?lang=en"`);

    // Without confirm=yes the customer is only asked.
    const unconfirmed = await browser.post(`/portal/subscriptions/${alice.id}/cancel`, { csrf });
    expect(unconfirmed.status).toBe(303);
    expect(unconfirmed.headers.get("location")).toBe(`/portal/subscriptions/${alice.id}/cancel?lang=en`);
    expect((await subscriptionOf(world.h, alice.id)).cancelAtPeriodEnd).toBe(false);
    const confirm = await (await browser.get(`/portal/subscriptions/${alice.id}/cancel?lang=en`)).text();
    expect(confirm).toContain("Cancel your subscription?");
    expect(confirm).toContain('name="confirm" value="yes"');

    const canceled = await browser.post(`/portal/subscriptions/${alice.id}/cancel`, {
      csrf,
      confirm: "yes",
      lang: "en",
    });
    expect(canceled.status).toBe(303);
    expect(canceled.headers.get("location")).toBe("/portal?lang=en&done=canceled");
    const row = await subscriptionOf(world.h, alice.id);
    expect(row).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    const after = await (await browser.get("/portal?done=canceled")).text();
    expect(after).toContain("Your subscription will end at the end of the current period.");
    expect(after).toContain("data-pending-cancel");
    expect(after).toContain(`action="/portal/subscriptions/${alice.id}/resume"`);

    const resumed = await browser.post(`/portal/subscriptions/${alice.id}/resume`, { csrf, lang: "en" });
    expect(resumed.headers.get("location")).toBe("/portal?lang=en&done=resumed");
    expect(await subscriptionOf(world.h, alice.id)).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: false,
      nextBillingAt: row.nextBillingAt,
    });
    const types = await world.h.ctx.db
      .select({ type: events.type, actor: events.actor })
      .from(events)
      .where(eq(events.subscriptionId, alice.id))
      .orderBy(asc(events.id));
    expect(types.filter((event) => event.actor === "customer:portal")).toEqual([
      { type: "subscription.cancel_scheduled", actor: "customer:portal" },
      { type: "subscription.cancel_unscheduled", actor: "customer:portal" },
    ]);
  });

  it("sends the card form to a new hosted checkout for the subscription", async () => {
    const browser = await signIn(world, alice.customerId);
    const response = await browser.post(`/portal/subscriptions/${alice.id}/card`, {
      csrf: await browser.csrf(),
    });
    expect(response.status).toBe(303);
    const checkout = response.headers.get("location") ?? "";
    expect(checkout.startsWith(`${world.h.sim.url}/checkout/`)).toBe(true);
    const pending = await world.h.ctx.db
      .select()
      .from(enrollments)
      .where(eq(enrollments.subscriptionId, alice.id));
    expect(pending.filter((row) => row.status === "pending").map((row) => row.checkoutUrl)).toEqual([
      checkout,
    ]);
  });

  it("speaks Arabic, right to left, to an Arabic customer and on ?lang=ar", async () => {
    const browser = await signIn(world, bob.customerId);
    const html = await (await browser.get("/portal")).text();
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain("اشتراكاتك");
    expect(html).toContain('<span class="num" dir="ltr">100.00 QAR</span>');
    expect(html).toContain('<a id="language-toggle" href="/portal?lang=en"');
    const english = await (await browser.get("/portal?lang=en")).text();
    expect(english).toContain('<html lang="en" dir="ltr">');
    const aliceSees = await signIn(world, alice.customerId);
    expect(await (await aliceSees.get("/portal?lang=ar")).text()).toContain('<html lang="ar" dir="rtl">');
  });

  it("isolates the names the merchant and the customer gave, in English and Arabic", async () => {
    // A right-to-left override (U+202E) in a name would otherwise reorder the text after it: the
    // status badge beside a plan name, the rest of a sentence.
    const planName = "Gold \u202Eplan";
    const customerName = "Eve \u202Eevil";
    const eve = await payingCustomer(world, { name: customerName });
    await world.h.ctx.db.update(plans).set({ name: planName }).where(eq(plans.id, eve.planId));
    const browser = await signIn(world, eve.customerId);
    const isolated = (page: string, name: string) => {
      const shown = page.split(name).length - 1;
      expect(shown).toBeGreaterThan(0);
      expect(page.split(`<bdi>${name}</bdi>`).length - 1).toBe(shown);
    };
    for (const language of ["en", "ar"]) {
      const page = await (await browser.get(`/portal?lang=${language}`)).text();
      expect(page).toContain(`<html lang="${language}"`);
      expect(page).toContain(`<h3><bdi>${planName}</bdi> <span class="status status-active">`);
      isolated(page, planName);
      isolated(page, customerName);
      const confirm = await (
        await browser.get(`/portal/subscriptions/${eve.id}/cancel?lang=${language}`)
      ).text();
      isolated(confirm, planName);
    }
  });

  it("signs out: the cookie is cleared and the session is gone", async () => {
    const browser = await signIn(world, alice.customerId);
    const out = await browser.post("/portal/logout", { csrf: await browser.csrf() });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/^billing_portal=; Path=\/portal;.*Max-Age=0/);
    expect((await browser.get("/portal")).status).toBe(401);
  });
});

describe("changing seats", () => {
  it("is offered only when PORTAL_SEAT_CHANGES=true on a plan priced per seat, as a change of quantity", async () => {
    const dora = await payingCustomer(world, { name: "Dora" });
    const { db } = world.h.ctx;
    const [team] = await db
      .insert(plans)
      .values({
        name: "Team",
        amountMinor: 10_000,
        currency: "QAR",
        intervalUnit: "month",
        intervalCount: 1,
        billingMode: "autosave",
        priceModel: "per_unit",
      })
      .returning();
    await db.update(subscriptions).set({ planId: team!.id }).where(eq(subscriptions.id, dora.id));

    const off = await signIn(world, dora.customerId);
    const plain = await (await off.get("/portal")).text();
    expect(plain).toContain('data-quantity="1"');
    expect(plain).not.toContain('data-action="seats"');
    const missing = await off.post(`/portal/subscriptions/${dora.id}/seats`, {
      csrf: await off.csrf(),
      quantity: "2",
    });
    expect(missing.status).toBe(404);

    const allowing = await startServer(
      { ...world.h.ctx, config: { ...world.h.ctx.config, PORTAL_SEAT_CHANGES: true } },
      { port: 0, host: "127.0.0.1" },
    );
    try {
      const on = await signIn({ ...world, server: allowing }, dora.customerId);
      const csrf = await on.csrf();
      const page = await (await on.get("/portal")).text();
      expect(page).toContain(`action="/portal/subscriptions/${dora.id}/seats"`);
      expect(page).toContain('name="quantity" type="number" min="1" max="1000000" step="1" value="1"');

      // Her card is a recurring token: more seats would change the amount it pays.
      const fixed = await on.post(`/portal/subscriptions/${dora.id}/seats`, { csrf, quantity: "2" });
      expect(fixed.headers.get("location")).toBe("/portal?lang=en&done=refused");
      const bad = await on.post(`/portal/subscriptions/${dora.id}/seats`, { csrf, quantity: "0" });
      expect(bad.headers.get("location")).toBe("/portal?lang=en&done=refused");
      expect((await subscriptionOf(world.h, dora.id)).quantity).toBe(1);

      // Paying by link, any amount can be asked: three seats from now, the difference collected by link.
      await db
        .update(subscriptions)
        .set({ collectionMethod: "send_payment_link" })
        .where(eq(subscriptions.id, dora.id));
      const changed = await on.post(`/portal/subscriptions/${dora.id}/seats`, { csrf, quantity: "3" });
      expect(changed.headers.get("location")).toBe("/portal?lang=en&done=plan_changed");
      expect((await subscriptionOf(world.h, dora.id)).quantity).toBe(3);
      const [change] = await db.select().from(planChanges).where(eq(planChanges.subscriptionId, dora.id));
      expect(change).toMatchObject({ fromQuantity: 1, toQuantity: 3, actor: "customer:portal" });
      const after = await (await on.get("/portal")).text();
      expect(after).toContain('data-quantity="3"');
      expect(after).toContain("300.00");
    } finally {
      await allowing.close();
    }
  });
});

describe("changing plan", () => {
  it("is offered only when PORTAL_PLAN_CHANGES=true: same currency, not archived; the POST checks again", async () => {
    const carol = await payingCustomer(world, { name: "Carol" });
    const { db } = world.h.ctx;
    const [platinum, archived, dollars, gold] = await db
      .insert(plans)
      .values([
        // Carol's card is a recurring token, which the gateway charges only its enrolled amount:
        // Platinum (the same price and interval) is offered, Gold (another price) is not.
        { name: "Platinum", amountMinor: 10_000, currency: "QAR", intervalUnit: "month", intervalCount: 1 },
        {
          name: "Retired",
          amountMinor: 5_000,
          currency: "QAR",
          intervalUnit: "month",
          intervalCount: 1,
          archivedAt: new Date("2025-12-01T00:00:00Z"),
        },
        { name: "Dollars", amountMinor: 3_000, currency: "USD", intervalUnit: "month", intervalCount: 1 },
        { name: "Gold", amountMinor: 20_000, currency: "QAR", intervalUnit: "month", intervalCount: 1 },
      ])
      .returning();

    // The world's server runs with the default (false): no form, no route.
    const off = await signIn(world, carol.customerId);
    expect(await (await off.get("/portal")).text()).not.toContain('data-action="plan"');
    const refused = await off.post(`/portal/subscriptions/${carol.id}/plan`, {
      csrf: await off.csrf(),
      plan_id: platinum!.id,
    });
    expect(refused.status).toBe(404);

    const allowing = await startServer(
      { ...world.h.ctx, config: { ...world.h.ctx.config, PORTAL_PLAN_CHANGES: true } },
      { port: 0, host: "127.0.0.1" },
    );
    try {
      const on = await signIn({ ...world, server: allowing }, carol.customerId);
      const csrf = await on.csrf();
      const page = await (await on.get("/portal")).text();
      const form = page.slice(page.indexOf(`action="/portal/subscriptions/${carol.id}/plan"`));
      // An option holds text only: the name is isolated by FSI … PDI, the characters <bdi> stands for.
      expect(form).toContain(`<option value="${platinum!.id}">\u2068Platinum\u2069 — 100.00 QAR</option>`);
      expect(page).not.toContain(archived!.id);
      expect(page).not.toContain(dollars!.id);
      expect(page).not.toContain(gold!.id);

      for (const planId of [archived!.id, dollars!.id, gold!.id, carol.planId, "not-a-plan"]) {
        const answer = await on.post(`/portal/subscriptions/${carol.id}/plan`, { csrf, plan_id: planId });
        expect(answer.headers.get("location")).toBe("/portal?lang=en&done=refused");
      }
      expect((await subscriptionOf(world.h, carol.id)).planId).toBe(carol.planId);

      const changed = await on.post(`/portal/subscriptions/${carol.id}/plan`, {
        csrf,
        plan_id: platinum!.id,
      });
      expect(changed.headers.get("location")).toBe("/portal?lang=en&done=plan_changed");
      expect((await subscriptionOf(world.h, carol.id)).planId).toBe(platinum!.id);
      const [change] = await db.select().from(planChanges).where(eq(planChanges.subscriptionId, carol.id));
      expect(change).toMatchObject({ status: "applied", actor: "customer:portal", toPlanId: platinum!.id });

      // A change scheduled for the period's end (here by the merchant) is shown with its date.
      await changePlan(world.h.ctx, {
        subscriptionId: carol.id,
        planId: carol.planId,
        proration: "at_period_end",
        actor: "test",
      });
      const scheduled = await (await on.get("/portal")).text();
      expect(scheduled).toContain('<p class="pending" data-pending-plan>Moves to <bdi>');
      expect(scheduled).toContain('on <bdi class="date">15 Feb 2026</bdi>.');

      // A past_due subscription pays its debt before it changes plan: nothing is offered.
      await db.update(subscriptions).set({ status: "past_due" }).where(eq(subscriptions.id, carol.id));
      expect(await (await on.get("/portal")).text()).not.toContain('data-action="plan"');
    } finally {
      await allowing.close();
    }
  });
});

describe("paying by link", () => {
  it("shows what is due with its Pay now link, and how each subscription pays", async () => {
    const { subscription, charge } = await customerPayingByLink(world, { name: "Dana" });
    const browser = await signIn(world, subscription.customerId);
    const html = await (await browser.get("/portal")).text();
    const link = paymentLinkUrl(world.h.ctx, charge.id);
    expect(link.startsWith(`${world.server.url}/pay/${charge.id}/`)).toBe(true);
    expect(html).toContain('<section id="due"><h2>Payments due</h2>');
    const row = html.slice(html.indexOf(`<tr data-due-charge="${charge.id}">`));
    expect(row).toMatch(
      /^<tr data-due-charge="[0-9a-f-]{36}"><td><bdi class="date">15 Jan 2026<\/bdi><\/td>\n<td><bdi>Monthly<\/bdi><\/td><td class="amount"><span class="num" dir="ltr">100.00 QAR<\/span><\/td>/,
    );
    expect(row).toContain(`<a class="button" data-action="pay" href="${link}">Pay now</a>`);
    expect(html).toContain(
      '<dt>Payment</dt><dd data-collection-method="send_payment_link">Pays by payment link</dd>',
    );
    expect(html).toContain('<dd class="card"><span class="none">No card saved</span></dd>');
    expect(html).toContain(
      '<button type="submit" data-action="card">Save a card for automatic payments</button>',
    );
    expect(html).toContain('<span class="status status-awaiting_payment">Awaiting payment</span>');
    // Still no script or inline style: "Pay now" is a plain link.
    expect(html).not.toMatch(/<script|style=|<style/);

    const arabic = await (await browser.get("/portal?lang=ar")).text();
    expect(arabic).toContain('<section id="due"><h2>مدفوعات مستحقة</h2>');
    expect(arabic).toContain(`<a class="button" data-action="pay" href="${link}">ادفع الآن</a>`);
    expect(arabic).toContain('<dd data-collection-method="send_payment_link">يُدفع عبر رابط الدفع</dd>');
    expect(arabic).toContain('data-action="card">حفظ بطاقة للدفع التلقائي</button>');
    expect(arabic).toContain("بانتظار الدفع");

    // The link the page gives is the charge's own: it sends the browser to the hosted checkout.
    const opened = await fetch(link, { redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")?.startsWith(`${world.h.sim.url}/checkout/`)).toBe(true);

    // A customer who pays by card sees that, the usual card action, and nothing due.
    const alicePage = await (await (await signIn(world, alice.customerId)).get("/portal")).text();
    expect(alicePage).toContain('<dd data-collection-method="charge_automatically">Pays by card</dd>');
    expect(alicePage).toContain('data-action="card">Update card</button>');
    expect(alicePage).not.toContain('id="due"');
    const bobPage = await (await (await signIn(world, bob.customerId)).get("/portal")).text();
    expect(bobPage).toContain('<dd data-collection-method="charge_automatically">يُدفع بالبطاقة</dd>');
    expect(bobPage).toContain('data-action="card">تحديث البطاقة</button>');
  });

  it("saving a card from the portal turns the subscription to automatic payments", async () => {
    const { subscription, charge } = await customerPayingByLink(world, { name: "Huda" });
    const browser = await signIn(world, subscription.customerId);
    const response = await browser.post(`/portal/subscriptions/${subscription.id}/card`, {
      csrf: await browser.csrf(),
    });
    expect(response.status).toBe(303);
    const checkout = response.headers.get("location") ?? "";
    expect(checkout.startsWith(`${world.h.sim.url}/checkout/`)).toBe(true);
    const paid = await pay(world.h, checkout);
    await follow(paid.redirect_url);

    const after = await subscriptionOf(world.h, subscription.id);
    expect(after.collectionMethod).toBe("charge_automatically");
    expect(after.paymentMethodId).not.toBeNull();
    // What waited for its link goes back to the card path: nothing is due by link any more.
    expect((await chargeOf(world, charge.id)).status).not.toBe("awaiting_payment");
    const html = await (await browser.get("/portal")).text();
    expect(html).not.toContain('id="due"');
    expect(html).toContain('<dd data-collection-method="charge_automatically">Pays by card</dd>');
    expect(html).toContain('data-action="card">Update card</button>');
  });
});

describe("add-ons and usage so far", () => {
  it("shows each add-on at its quantity and period price, and the usage so far as the usage charge will price it", async () => {
    const { h } = world;
    const { subscription } = await customerPayingByLink(
      world,
      { name: "Maha" },
      { billing_mode: "autosave" },
    );
    for (const addon of [
      { code: "seat", name: "Extra seat", currency: "QAR", price_model: "per_unit", amount: "10.00" },
      {
        code: "storage",
        name: "Storage",
        currency: "QAR",
        price_model: "tiered",
        tiers: [
          { up_to: 10, unit_amount: "2.00" },
          { up_to: null, unit_amount: "1.00" },
        ],
      },
    ]) {
      await createAddon(h.ctx, addon);
    }
    await setSubscriptionAddon(h.ctx, {
      subscriptionId: subscription.id,
      addon: "seat",
      quantity: 3,
      actor: "test",
    });
    await setSubscriptionAddon(h.ctx, {
      subscriptionId: subscription.id,
      addon: "storage",
      quantity: 12,
      actor: "test",
    });
    await createMeter(h.ctx, { code: "api_calls", name: "API calls", aggregation: "sum" });
    await createMeter(h.ctx, { code: "active_users", name: "Active users", aggregation: "unique_count" });
    await setUsagePrice(h.ctx, {
      planId: subscription.planId,
      meter: "api_calls",
      input: { amount: "0.05" },
    });
    await setUsagePrice(h.ctx, {
      planId: subscription.planId,
      meter: "active_users",
      input: {
        price_model: "tiered",
        tiers: [
          { up_to: 2, unit_amount: "0" },
          { up_to: null, unit_amount: "1.50" },
        ],
      },
    });
    h.clock.advance({ minutes: 5 });
    const usage = [
      { id: "c1", meter: "api_calls", quantity: 1000 },
      { id: "c2", meter: "api_calls", quantity: 234 },
      ...["u1", "u2", "u3", "u4", "u1"].map((user, i) => ({
        id: `u${i}`,
        meter: "active_users",
        distinct_value: user,
      })),
    ].map((event) => usageEventSchema.parse({ subscription_id: subscription.id, ...event }));
    const results = await ingestUsage(h.ctx, usage);
    expect(results.map((result) => result.status)).toEqual(Array(usage.length).fill("accepted"));

    const browser = await signIn(world, subscription.customerId);
    const english = await (await browser.get("/portal")).text();
    expect(english).toContain('<div class="addons"><h4>Add-ons</h4>');
    // 3 × 10.00, and 10 × 2.00 + 2 × 1.00: each add-on at its own price model, for one period.
    expect(english).toContain(
      '<tr data-addon="seat"><td><bdi>Extra seat</bdi></td>\n<td data-quantity="3">3</td>\n<td class="amount"><span class="num" dir="ltr">30.00 QAR</span> <span class="muted">per month</span></td></tr>',
    );
    expect(english).toContain(
      '<tr data-addon="storage"><td><bdi>Storage</bdi></td>\n<td data-quantity="12">12</td>\n<td class="amount"><span class="num" dir="ltr">22.00 QAR</span> <span class="muted">per month</span></td></tr>',
    );
    // By meter code, as the usage charge lists them: 4 users (2 free, 2 × 1.50), 1234 calls × 0.05.
    expect(english).toContain(
      '<div class="usage" data-usage="priced"><h4>Usage so far this period</h4>\n<table><thead><tr><th>Item</th><th>Quantity</th><th class="amount">Amount so far</th></tr></thead>\n' +
        '<tbody><tr><td><bdi>Active users</bdi></td><td data-usage-value="4">4</td><td class="amount"><span class="num" dir="ltr">3.00 QAR</span></td></tr>' +
        '<tr><td><bdi>API calls</bdi></td><td data-usage-value="1234">1234</td><td class="amount"><span class="num" dir="ltr">61.70 QAR</span></td></tr></tbody>\n' +
        '<tfoot><tr><th colspan="2">Total so far</th><td class="amount" data-usage-total><span class="num" dir="ltr">64.70 QAR</span></td></tr></tfoot></table></div>',
    );
    // The same amount the upcoming-charge preview gives.
    const preview = await usagePreview(h.ctx.db.$client, subscription.id, h.ctx.config.USAGE_GRACE_HOURS);
    expect(preview?.totalMinor).toBe(6470);

    const arabic = await (await browser.get("/portal?lang=ar")).text();
    expect(arabic).toContain('<div class="addons"><h4>الإضافات</h4>');
    expect(arabic).toContain(
      '<span class="num" dir="ltr">30.00 QAR</span> <span class="muted">لكل شهر</span>',
    );
    expect(arabic).toContain("<h4>الاستخدام حتى الآن في هذه الفترة</h4>");
    expect(arabic).toContain('<th class="amount">المبلغ حتى الآن</th>');
    expect(arabic).toContain(
      '<th colspan="2">الإجمالي حتى الآن</th><td class="amount" data-usage-total><span class="num" dir="ltr">64.70 QAR</span></td>',
    );

    // Ending at its period's end, its last period's usage is not charged (docs/usage.md): the values alone.
    await h.ctx.db
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: true })
      .where(eq(subscriptions.id, subscription.id));
    const ending = await (await browser.get("/portal")).text();
    expect(ending).toContain(
      '<div class="usage" data-usage="values"><h4>Usage so far this period</h4>\n<table><thead><tr><th>Item</th><th>Quantity</th></tr></thead>\n' +
        '<tbody><tr><td><bdi>Active users</bdi></td><td data-usage-value="4">4</td></tr><tr><td><bdi>API calls</bdi></td><td data-usage-value="1234">1234</td></tr></tbody></table></div>',
    );
    expect(ending).not.toContain("Amount so far");

    // Moved to a plan that prices no usage, the period's usage is still charged on its period
    // charge's plan (usage-billing/due-periods.ts): still shown, with its amounts.
    const [plain] = await h.ctx.db
      .insert(plans)
      .values({
        name: "Plain",
        amountMinor: 10_000,
        currency: "QAR",
        intervalUnit: "month",
        intervalCount: 1,
      })
      .returning();
    await h.ctx.db
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: false, planId: plain!.id })
      .where(eq(subscriptions.id, subscription.id));
    const moved = await (await browser.get("/portal")).text();
    expect(moved).toContain('<div class="usage" data-usage="priced">');
    expect(moved).toContain('data-usage-total><span class="num" dir="ltr">64.70 QAR</span>');

    // A plan that prices no usage shows no usage, and no add-ons when there are none.
    const alicePage = await (await (await signIn(world, alice.customerId)).get("/portal")).text();
    expect(alicePage).not.toContain('class="usage"');
    expect(alicePage).not.toContain('class="addons"');
  });
});
