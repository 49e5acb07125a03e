import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coupons } from "../../../src/db/schema/index.js";
import { type ApiHarness, activeSubscription, createApiHarness, PAYING_CARD, PLAN_BODY } from "./support.js";

/**
 * Coupons through the merchant API: creating them, redeeming one at enrolment or later, the rules
 * that refuse a redemption (limits, expiry on the billing clock, currency, archived, recurring
 * tokens), and removing a discount.
 */

let api: ApiHarness;
/** A plan charged with autosave tokens, the only kind a discounted amount can be charged to. */
let autosavePlanId: string;
let customerCount = 0;

beforeAll(async () => {
  api = await createApiHarness();
  const plan = await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, billing_mode: "autosave" } });
  expect(plan.statusCode).toBe(201);
  autosavePlanId = plan.json().id;
});
afterAll(() => api?.close());

interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; message: string }[];
}
const problem = (response: { json: () => unknown }) => response.json() as Problem;
const fields = (response: { json: () => unknown }) => problem(response).errors?.map((e) => e.field) ?? [];

async function createCoupon(body: Record<string, unknown>) {
  const response = await api.call("POST", "/v1/coupons", { body });
  if (response.statusCode !== 201)
    throw new Error(`create coupon answered ${response.statusCode}: ${response.body}`);
  return response.json() as { id: string; code: string; redemptions: number };
}

async function newCustomer(): Promise<string> {
  customerCount += 1;
  const response = await api.call("POST", "/v1/customers", {
    body: { email: `coupon-${customerCount}@example.qa` },
  });
  return response.json().id;
}

/** A pending_enrollment subscription to the autosave plan, with a coupon when given. */
function subscribe(customerId: string, extra: Record<string, unknown> = {}, planId = autosavePlanId) {
  return api.call("POST", "/v1/subscriptions", {
    body: { customer_id: customerId, plan_id: planId, ...extra },
  });
}

async function pendingSubscription(): Promise<string> {
  const created = await subscribe(await newCustomer());
  expect(created.statusCode).toBe(201);
  return created.json().id;
}

const applyCoupon = (subscriptionId: string, coupon: string) =>
  api.call("POST", `/v1/subscriptions/${subscriptionId}/discount`, { body: { coupon } });

async function subscriptionsOf(customerId: string) {
  return (await api.call("GET", `/v1/subscriptions?customer_id=${customerId}`)).json().data as unknown[];
}

async function redemptionsOf(code: string): Promise<number> {
  return (await api.call("GET", `/v1/coupons/${code}`)).json().redemptions;
}

/** Waits (with a deadline) until `count` sessions of the test database wait for a row lock. */
async function waitForLockWaiters(count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [row] = await api.h.ctx.db.execute<{ waiting: number }>(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if ((row?.waiting ?? 0) >= count) return;
    if (Date.now() > deadline) throw new Error(`fewer than ${count} sessions waited for the coupon's lock`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("creating coupons", () => {
  it("creates a percentage coupon, storing its code trimmed and upper-case", async () => {
    const response = await api.call("POST", "/v1/coupons", {
      body: { code: "  spring-10 ", name: "Spring", percent_off: 10, duration: "once" },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      code: "SPRING-10",
      name: "Spring",
      discount_type: "percentage",
      percent_off: 10,
      amount_off: null,
      duration: "once",
      duration_periods: null,
      max_redemptions: null,
      redemptions: 0,
      expires_at: null,
      archived_at: null,
    });
    const byCode = await api.call("GET", "/v1/coupons/spring-10");
    expect(byCode.json().id).toBe(response.json().id);
    const byId = await api.call("GET", `/v1/coupons/${response.json().id}`);
    expect(byId.json().code).toBe("SPRING-10");
  });

  it("creates a fixed coupon, its amount converted exactly in the currency's decimals", async () => {
    const response = await api.call("POST", "/v1/coupons", {
      body: {
        code: "FIVE50",
        amount_off: "5.5",
        currency: "QAR",
        duration: "repeating",
        duration_periods: 3,
      },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      discount_type: "fixed",
      percent_off: null,
      amount_off: { amount: "5.50", amount_minor: 550, currency: "QAR" },
      duration: "repeating",
      duration_periods: 3,
    });
  });

  it.each([0, 100, 12.5])("refuses percent_off %s, naming the field", async (percent) => {
    const response = await api.call("POST", "/v1/coupons", {
      body: { code: "BAD", percent_off: percent, duration: "forever" },
    });
    expect(response.statusCode).toBe(400);
    expect(problem(response).code).toBe("validation_failed");
    expect(fields(response)).toEqual(["percent_off"]);
  });

  it("names duration_periods when a repeating coupon lacks it, and when another has it", async () => {
    const missing = await api.call("POST", "/v1/coupons", {
      body: { code: "REP", percent_off: 20, duration: "repeating" },
    });
    expect(missing.statusCode).toBe(400);
    expect(fields(missing)).toEqual(["duration_periods"]);
    const extra = await api.call("POST", "/v1/coupons", {
      body: { code: "ONCE", percent_off: 20, duration: "once", duration_periods: 2 },
    });
    expect(fields(extra)).toEqual(["duration_periods"]);
  });

  it("names each bad field of a fixed coupon at once", async () => {
    const both = await api.call("POST", "/v1/coupons", {
      body: { code: "BOTH", percent_off: 10, amount_off: "1.00", currency: "QAR", duration: "once" },
    });
    expect(fields(both)).toEqual(["amount_off"]);
    const tooPrecise = await api.call("POST", "/v1/coupons", {
      body: { code: "x y", amount_off: "1.005", currency: "QAR", duration: "once" },
    });
    expect(fields(tooPrecise).sort()).toEqual(["amount_off", "code"]);
    const noCurrency = await api.call("POST", "/v1/coupons", {
      body: { code: "NOCUR", amount_off: "1.00", duration: "once" },
    });
    expect(fields(noCurrency)).toEqual(["currency"]);
    const foreign = await api.call("POST", "/v1/coupons", {
      body: { code: "USD", amount_off: "1.00", currency: "USD", duration: "once" },
    });
    expect(fields(foreign)).toEqual(["currency"]);
    expect(problem(foreign).detail).toContain("GATEWAY_CURRENCIES");
    const neither = await api.call("POST", "/v1/coupons", { body: { code: "NONE", duration: "once" } });
    expect(fields(neither)).toEqual(["percent_off"]);
  });

  it("refuses a code already taken, whatever its case, and an expiry already past", async () => {
    await createCoupon({ code: "TAKEN", percent_off: 5, duration: "forever" });
    const again = await api.call("POST", "/v1/coupons", {
      body: { code: "taken", percent_off: 15, duration: "once" },
    });
    expect(again.statusCode).toBe(409);
    expect(problem(again).code).toBe("coupon_exists");
    const past = await api.call("POST", "/v1/coupons", {
      body: {
        code: "PAST",
        percent_off: 5,
        duration: "once",
        expires_at: api.h.clock.now().minus({ minutes: 1 }).toISO(),
      },
    });
    expect(past.statusCode).toBe(400);
    expect(fields(past)).toEqual(["expires_at"]);
  });

  it("lists coupons, archived ones only when asked, and 404s an unknown one", async () => {
    const coupon = await createCoupon({ code: "TO-ARCHIVE", percent_off: 30, duration: "once" });
    const archived = await api.call("POST", `/v1/coupons/${coupon.id}/archive`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json().archived_at).toBe(api.h.clock.now().toUTC().toISO());
    const codes = async (query = "") =>
      (await api.call("GET", `/v1/coupons${query}`)).json().data.map((c: { code: string }) => c.code);
    expect(await codes()).not.toContain("TO-ARCHIVE");
    expect(await codes("?include_archived=true")).toContain("TO-ARCHIVE");
    const page = (await api.call("GET", "/v1/coupons?limit=1")).json();
    expect(page).toMatchObject({ data: [expect.any(Object)], has_more: true });
    expect((await api.call("GET", "/v1/coupons/NO-SUCH")).statusCode).toBe(404);
  });
});

describe("redeeming at enrolment", () => {
  it("redeems the coupon with the new subscription and shows its discount", async () => {
    const coupon = await createCoupon({
      code: "WELCOME",
      percent_off: 25,
      duration: "repeating",
      duration_periods: 2,
    });
    const created = await subscribe(await newCustomer(), { coupon: "welcome" });
    expect(created.statusCode).toBe(201);
    expect(created.json().discount).toMatchObject({
      coupon_id: coupon.id,
      coupon_code: "WELCOME",
      discount_type: "percentage",
      percent_off: 25,
      amount_off: null,
      duration: "repeating",
      duration_periods: 2,
      periods_applied: 0,
    });
    expect(await redemptionsOf("WELCOME")).toBe(1);
    const events = (await api.call("GET", `/v1/subscriptions/${created.json().id}/events`)).json();
    const applied = events.data.find((e: { type: string }) => e.type === "subscription.discount_applied");
    expect(applied?.data).toMatchObject({ coupon_id: coupon.id, coupon_code: "WELCOME" });
  });

  it("creates nothing when the coupon is refused", async () => {
    const customerId = await newCustomer();
    const unknown = await subscribe(customerId, { coupon: "NOPE" });
    expect(unknown.statusCode).toBe(422);
    expect(problem(unknown).code).toBe("unknown_reference");
    expect(fields(unknown)).toEqual(["coupon"]);

    await createCoupon({ code: "ONE-USE", percent_off: 50, duration: "once", max_redemptions: 1 });
    expect((await subscribe(await newCustomer(), { coupon: "ONE-USE" })).statusCode).toBe(201);
    const exhausted = await subscribe(customerId, { coupon: "ONE-USE" });
    expect(exhausted.statusCode).toBe(422);
    expect(problem(exhausted).code).toBe("coupon_exhausted");
    expect(await subscriptionsOf(customerId)).toEqual([]);
    expect(await redemptionsOf("ONE-USE")).toBe(1);
  });

  it("gives the redemption back when the gateway refuses the checkout", async () => {
    await createCoupon({ code: "SINGLE", percent_off: 20, duration: "once", max_redemptions: 1 });
    const merchant = `/_sim/merchants/${api.h.sim.defaultApiKey}`;
    await api.h.simAdmin("PATCH", merchant, { currencies: ["USD"] });
    let refused: Awaited<ReturnType<ApiHarness["call"]>>;
    try {
      refused = await subscribe(await newCustomer(), { coupon: "SINGLE" });
    } finally {
      await api.h.simAdmin("PATCH", merchant, { currencies: ["QAR"] });
    }
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ code: "checkout_failed", subscription_canceled: true });
    const canceled = (await api.call("GET", `/v1/subscriptions/${refused.json().subscription_id}`)).json();
    expect(canceled).toMatchObject({ status: "canceled", discount: null });
    expect(await redemptionsOf("SINGLE")).toBe(0);
    // The one use is still there for a subscription that starts.
    expect((await subscribe(await newCustomer(), { coupon: "SINGLE" })).statusCode).toBe(201);
    expect(await redemptionsOf("SINGLE")).toBe(1);
  });

  it("refuses a coupon on a plan that charges recurring tokens, saying why", async () => {
    await createCoupon({ code: "RECUR", percent_off: 10, duration: "forever" });
    const recurringPlan = (await api.call("POST", "/v1/plans", { body: PLAN_BODY })).json().id;
    const customerId = await newCustomer();
    const refused = await subscribe(customerId, { coupon: "RECUR" }, recurringPlan);
    expect(refused.statusCode).toBe(422);
    expect(problem(refused).code).toBe("coupon_needs_autosave");
    expect(problem(refused).detail).toContain("GetnewPayment");
    expect(await subscriptionsOf(customerId)).toEqual([]);
    expect(await redemptionsOf("RECUR")).toBe(0);
  });
});

describe("redeeming later and removing", () => {
  it("applies a coupon to a live subscription, refuses a second, and removes it", async () => {
    await createCoupon({ code: "LATER", amount_off: "10.00", currency: "QAR", duration: "forever" });
    const customerId = await newCustomer();
    const created = (await subscribe(customerId)).json();
    await api.h.simAdmin("POST", "/_sim/pay", { checkout_url: created.checkout_url, ...PAYING_CARD });
    await api.app.inject({ url: `/gateway/webhook?orderId=${created.enrollment_id}` });
    expect((await api.call("GET", `/v1/subscriptions/${created.id}`)).json().status).toBe("active");

    const applied = await applyCoupon(created.id, "later");
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({
      id: created.id,
      status: "active",
      discount: {
        coupon_code: "LATER",
        amount_off: { amount: "10.00", amount_minor: 1000, currency: "QAR" },
      },
    });
    await createCoupon({ code: "SECOND", percent_off: 5, duration: "once" });
    const second = await applyCoupon(created.id, "SECOND");
    expect(second.statusCode).toBe(409);
    expect(problem(second).code).toBe("discount_exists");
    expect(await redemptionsOf("SECOND")).toBe(0);

    const removed = await api.call("DELETE", `/v1/subscriptions/${created.id}/discount`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().discount).toBeNull();
    const again = await api.call("DELETE", `/v1/subscriptions/${created.id}/discount`);
    expect(again.statusCode).toBe(404);
    expect(problem(again).code).toBe("no_discount");
    // Once removed, another coupon can be redeemed.
    expect((await applyCoupon(created.id, "SECOND")).statusCode).toBe(200);

    const events = (await api.call("GET", `/v1/subscriptions/${created.id}/events?limit=100`)).json();
    const types = events.data.map((e: { type: string }) => e.type);
    expect(types.filter((t: string) => t.startsWith("subscription.discount_"))).toEqual([
      "subscription.discount_applied",
      "subscription.discount_removed",
      "subscription.discount_applied",
    ]);
  });

  it("refuses a subscription charged with a recurring token, and a canceled one", async () => {
    await createCoupon({ code: "ANY", percent_off: 10, duration: "once" });
    const recurring = await activeSubscription(api, "recurring-payer@example.qa");
    const refused = await applyCoupon(recurring.subscriptionId, "ANY");
    expect(refused.statusCode).toBe(422);
    expect(problem(refused).code).toBe("coupon_needs_autosave");
    expect(problem(refused).detail).toMatch(/recurring card token/);

    const pending = await pendingSubscription();
    expect((await api.call("POST", `/v1/subscriptions/${pending}/cancel`)).statusCode).toBe(200);
    const canceled = await applyCoupon(pending, "ANY");
    expect(canceled.statusCode).toBe(409);
    expect(problem(canceled).code).toBe("subscription_canceled");
    expect(await redemptionsOf("ANY")).toBe(0);
  });

  it("refuses an archived coupon, an unknown one and a fixed one in another currency", async () => {
    const subscriptionId = await pendingSubscription();
    const coupon = await createCoupon({ code: "OLD", percent_off: 10, duration: "once" });
    await api.call("POST", `/v1/coupons/${coupon.id}/archive`);
    const archived = await applyCoupon(subscriptionId, "OLD");
    expect(archived.statusCode).toBe(422);
    expect(problem(archived).code).toBe("coupon_archived");

    const unknown = await applyCoupon(subscriptionId, "MISSING");
    expect(unknown.statusCode).toBe(422);
    expect(problem(unknown).code).toBe("unknown_reference");
    expect(fields(unknown)).toEqual(["coupon"]);

    // A currency the gateway account no longer takes: such a coupon can only be in the table.
    await api.h.ctx.db.insert(coupons).values({
      code: "USD5",
      discountType: "fixed",
      amountOffMinor: 500,
      currency: "USD",
      duration: "once",
    });
    const mismatch = await applyCoupon(subscriptionId, "USD5");
    expect(mismatch.statusCode).toBe(422);
    expect(problem(mismatch).code).toBe("coupon_currency_mismatch");
    expect((await api.call("GET", `/v1/subscriptions/${subscriptionId}`)).json().discount).toBeNull();
  });

  it("refuses a coupon from its expiry on, on the billing clock", async () => {
    const expiresAt = api.h.clock.now().plus({ days: 1 });
    await createCoupon({ code: "SOON", percent_off: 10, duration: "once", expires_at: expiresAt.toISO() });
    const first = await pendingSubscription();
    expect((await applyCoupon(first, "SOON")).statusCode).toBe(200);
    api.h.clock.advance({ days: 1 });
    const second = await pendingSubscription();
    const expired = await applyCoupon(second, "SOON");
    expect(expired.statusCode).toBe(422);
    expect(problem(expired).code).toBe("coupon_expired");
  });
});

describe("redemption limits", () => {
  it("lets exactly one of two simultaneous redemptions take the last use", async () => {
    await createCoupon({ code: "LAST", percent_off: 40, duration: "once", max_redemptions: 2 });
    expect((await applyCoupon(await pendingSubscription(), "LAST")).statusCode).toBe(200);
    const [a, b] = [await pendingSubscription(), await pendingSubscription()];
    // The coupon's row is held here until both redemptions are waiting for it, so they truly meet.
    const { db } = api.h.ctx;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = db.transaction(async (tx) => {
      await tx.select().from(coupons).where(eq(coupons.code, "LAST")).for("update");
      locked();
      await held;
    });
    await lockTaken;
    const racing = Promise.all([applyCoupon(a, "LAST"), applyCoupon(b, "LAST")]);
    await waitForLockWaiters(2);
    release();
    await holder;
    const results = await racing;
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const loser = results.find((r) => r.statusCode === 422);
    expect(loser && problem(loser).code).toBe("coupon_exhausted");
    expect(await redemptionsOf("LAST")).toBe(2);
    const discounts = await Promise.all(
      [a, b].map(async (id) => (await api.call("GET", `/v1/subscriptions/${id}`)).json().discount),
    );
    expect(discounts.filter((discount) => discount !== null)).toHaveLength(1);
  });
});
