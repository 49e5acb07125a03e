import { asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, expect } from "vitest";
import { processChargeBatch } from "../../../src/charging/index.js";
import { chargeAttempts, charges, events, paymentLinks } from "../../../src/db/schema/index.js";
import { subscribe } from "../../../src/enrollment/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import type { EngineHarness } from "../../support/engine.js";
import {
  CARDS,
  type EnrollmentWorld,
  follow,
  ledgerOf,
  pay,
  seedCustomer,
  seedPlan,
  startEnrollmentWorld,
} from "../enrollment/support.js";

/** Our server and the simulator (startEnrollmentWorld) for each test of the file, closed after it. */
export function eachWorld(): { readonly w: EnrollmentWorld } {
  const world = {} as { w: EnrollmentWorld };
  beforeEach(async () => {
    world.w = await startEnrollmentWorld();
  });
  afterEach(() => world.w?.close());
  return world;
}

/** A customer subscribed by payment link to a new plan (overrides for either), started at once. */
export async function subscribeByLink(
  h: EngineHarness,
  { plan = {}, customer = {} }: { plan?: Record<string, unknown>; customer?: Record<string, unknown> } = {},
) {
  const seededCustomer = await seedCustomer(h, customer);
  const seededPlan = await seedPlan(h, plan);
  const result = await subscribe(h.ctx, {
    customerId: seededCustomer.id,
    planId: seededPlan.id,
    actor: "test",
    ...(plan.trial_without_card ? {} : { collectionMethod: "send_payment_link" as const }),
  });
  return { ...result, customer: seededCustomer, plan: seededPlan };
}

/** Ticks, then sends the new charge's link as the charge worker would; the charge awaiting payment. */
export async function dueLinkCharge(h: EngineHarness, subscriptionId: string) {
  await runBillingTick(h.ctx, { batchSize: 10 });
  const open = await h.ctx.db
    .select()
    .from(charges)
    .where(eq(charges.subscriptionId, subscriptionId))
    .orderBy(asc(charges.periodStart));
  const charge = open.at(-1);
  if (!charge) throw new Error(`no charge for ${subscriptionId}`);
  await processChargeBatch(h.ctx, [charge.id]);
  const [sent] = await h.ctx.db.select().from(charges).where(eq(charges.id, charge.id));
  expect(sent!.status).toBe("awaiting_payment");
  return sent!;
}

/** The link the merchant received in charge.payment_link_created. */
export async function linkOf(h: EngineHarness, chargeId: string): Promise<string> {
  const rows = await h.ctx.db.select().from(events).where(eq(events.chargeId, chargeId));
  const created = rows.find((row) => row.type === "charge.payment_link_created");
  if (!created) throw new Error(`no payment link event for charge ${chargeId}`);
  return (created.data as { payment_link: string }).payment_link;
}

/** The customer opens the link: where it sends the browser (the gateway's checkout). */
export async function openLink(link: string): Promise<string> {
  const response = await fetch(link, { redirect: "manual" });
  await response.text();
  expect(response.status).toBe(303);
  const location = response.headers.get("location");
  if (!location) throw new Error("no checkout to go to");
  return location;
}

/** Opens the link, pays its checkout and follows the browser back to our result page. */
export async function payLink(
  w: EnrollmentWorld,
  link: string,
  options: { card?: string; cvv?: string } = {},
) {
  const checkoutUrl = await openLink(link);
  const paid = await pay(w.h, checkoutUrl, options);
  return { checkoutUrl, paid, page: await follow(paid.redirect_url) };
}

export async function chargeRow(h: EngineHarness, id: string) {
  const [row] = await h.ctx.db.select().from(charges).where(eq(charges.id, id));
  if (!row) throw new Error(`no charge ${id}`);
  return row;
}

export function attemptsOf(h: EngineHarness, chargeId: string) {
  return h.ctx.db
    .select()
    .from(chargeAttempts)
    .where(eq(chargeAttempts.chargeId, chargeId))
    .orderBy(asc(chargeAttempts.attemptNumber));
}

export async function linkRow(h: EngineHarness, chargeId: string) {
  const [row] = await h.ctx.db.select().from(paymentLinks).where(eq(paymentLinks.chargeId, chargeId));
  return row;
}

/** Successful gateway payments of a charge's order ids, and the refunds of them. */
export async function ledgerFor(h: EngineHarness, chargeId: string) {
  const ledger = await ledgerOf(h);
  const mine = (orderId: string | null) => orderId?.startsWith(`chg_${chargeId}_`) === true;
  return {
    paid: ledger.payments.filter((p) => mine(p.order_id) && p.status === "SUCCESS"),
    failed: ledger.payments.filter((p) => mine(p.order_id) && p.status === "FAILURE"),
    refunds: ledger.refunds.filter((r) => mine(r.order_id)),
  };
}

export { CARDS };
