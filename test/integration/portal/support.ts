import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { processChargeBatch } from "../../../src/charging/index.js";
import { charges, invoices, subscriptions } from "../../../src/db/schema/index.js";
import { subscribe } from "../../../src/enrollment/index.js";
import { createPortalLink } from "../../../src/portal/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { planOfSubscription } from "../../db/fixtures.js";
import {
  type EnrollmentWorld,
  enrollNew,
  follow,
  pay,
  seedCustomer,
  seedPlan,
} from "../enrollment/support.js";

/**
 * A customer with a live subscription paid through the simulator's checkout (so it has a card), and
 * the portal as a browser without JavaScript sees it: a cookie jar of one cookie, redirects by hand.
 */
export async function payingCustomer(world: EnrollmentWorld, customer: Record<string, unknown> = {}) {
  const enrolment = await enrollNew(world.h, { customer });
  const paid = await pay(world.h, enrolment.checkoutUrl);
  await follow(paid.redirect_url);
  await firstPeriodPaid(world, enrolment.subscriptionId);
  const [subscription] = await world.h.ctx.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, enrolment.subscriptionId));
  if (subscription?.status !== "active") throw new Error("the seeded subscription did not start");
  return subscription;
}

/**
 * The first month billed as the scheduler and the invoice worker would leave it (they are not what
 * these tests are about): the period open, its charge of 100.00 QAR paid, and an invoice issued.
 */
async function firstPeriodPaid(world: EnrollmentWorld, subscriptionId: string): Promise<void> {
  const now = world.h.clock.now();
  const end = now.plus({ months: 1 });
  await world.h.ctx.db.transaction(async (tx) => {
    await tx
      .update(subscriptions)
      .set({
        currentPeriodStart: now.toJSDate(),
        currentPeriodEnd: end.toJSDate(),
        nextBillingAt: end.toJSDate(),
      })
      .where(eq(subscriptions.id, subscriptionId));
    const [charge] = await tx
      .insert(charges)
      .values({
        subscriptionId,
        planId: planOfSubscription(subscriptionId),
        periodStart: now.toJSDate(),
        periodEnd: end.toJSDate(),
        amountMinor: 10_000,
        currency: "QAR",
        status: "paid",
        attemptCount: 1,
        paidAt: now.toJSDate(),
        paidTransactionId: `seeded-${randomUUID()}`,
      })
      .returning({ id: charges.id });
    await tx.insert(invoices).values({
      chargeId: charge!.id,
      status: "created",
      gatewayInvoiceId: Math.floor(Math.random() * 1_000_000_000),
      number: `INV-${subscriptionId.slice(-8)}`,
      link: `https://invoices.example/${subscriptionId}`,
      amountMinor: 10_000,
      currency: "QAR",
    });
  });
}

/**
 * A customer whose subscription pays by payment link (no card), with its first charge of 100.00 QAR
 * due and its link sent, as the billing tick and the charge worker leave it: awaiting_payment.
 * `plan` overrides the seeded plan's fields (billing_mode autosave, to price usage).
 */
export async function customerPayingByLink(
  world: EnrollmentWorld,
  customer: Record<string, unknown> = {},
  plan: Record<string, unknown> = {},
) {
  const { h } = world;
  const seededCustomer = await seedCustomer(h, customer);
  const seededPlan = await seedPlan(h, plan);
  const { subscriptionId } = await subscribe(h.ctx, {
    customerId: seededCustomer.id,
    planId: seededPlan.id,
    actor: "test",
    collectionMethod: "send_payment_link",
  });
  await runBillingTick(h.ctx, { batchSize: 10 });
  const [due] = await h.ctx.db.select().from(charges).where(eq(charges.subscriptionId, subscriptionId));
  if (!due) throw new Error(`the tick made no charge for ${subscriptionId}`);
  await processChargeBatch(h.ctx, [due.id]);
  const charge = await chargeOf(world, due.id);
  if (charge.status !== "awaiting_payment")
    throw new Error(`the charge is ${charge.status}, not awaiting_payment`);
  const [subscription] = await h.ctx.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  if (subscription?.collectionMethod !== "send_payment_link" || subscription.paymentMethodId !== null) {
    throw new Error("the seeded subscription does not pay by link without a card");
  }
  return { subscription, charge };
}

export async function chargeOf(world: EnrollmentWorld, id: string) {
  const [row] = await world.h.ctx.db.select().from(charges).where(eq(charges.id, id));
  if (!row) throw new Error(`no charge ${id}`);
  return row;
}

export const linkFor = (world: EnrollmentWorld, customerId: string) =>
  createPortalLink(world.h.ctx, { customerId, actor: "test" });

export interface PortalBrowser {
  cookie: string | undefined;
  get(path: string): Promise<Response>;
  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  /** The CSRF token of the forms on /portal. */
  csrf(): Promise<string>;
}

/** The link's secret, from its address. */
export const secretOf = (url: string) => new URL(url).searchParams.get("token") ?? "";

/** What the customer's click on the link's page sends: the secret in a same-origin POST. */
export function openLink(world: EnrollmentWorld, url: string, token = secretOf(url)): Promise<Response> {
  return fetch(`${world.server.url}/portal/open`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: world.server.url },
    body: new URLSearchParams({ token }).toString(),
  });
}

export async function signIn(world: EnrollmentWorld, customerId: string): Promise<PortalBrowser> {
  const link = await linkFor(world, customerId);
  const opened = await openLink(world, link.url);
  if (opened.status !== 303) throw new Error(`the link answered ${opened.status}`);
  const cookie = opened.headers.get("set-cookie")?.split(";")[0];
  const browser: PortalBrowser = {
    cookie,
    get: (path) =>
      fetch(`${world.server.url}${path}`, {
        redirect: "manual",
        headers: browser.cookie ? { cookie: browser.cookie } : {},
      }),
    post: (path, form, headers = {}) =>
      fetch(`${world.server.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: world.server.url,
          ...(browser.cookie ? { cookie: browser.cookie } : {}),
          ...headers,
        },
        body: new URLSearchParams(form).toString(),
      }),
    async csrf() {
      const page = await (await browser.get("/portal")).text();
      const token = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
      if (!token) throw new Error("no CSRF token on /portal");
      return token;
    },
  };
  return browser;
}
