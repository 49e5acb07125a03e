import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { type RunningServer, startServer } from "../../../src/app/index.js";
import { createCustomer } from "../../../src/customers/index.js";
import { enrollments, events, paymentMethods, subscriptions } from "../../../src/db/schema/index.js";
import { enroll, gatewayCallbackUrls } from "../../../src/enrollment/index.js";
import { createPlan } from "../../../src/plans/index.js";
import type { ledger } from "../../../src/simulator/admin/ledger.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";

/**
 * An engine harness plus our HTTP server on a free port, with the simulator's default merchant
 * sending its success and failure redirects (and, unless told otherwise, its webhook) to us.
 */
export interface EnrollmentWorld {
  h: EngineHarness;
  server: RunningServer;
  close(): Promise<void>;
}

export async function startEnrollmentWorld({ webhook = true } = {}): Promise<EnrollmentWorld> {
  const h = await createEngineHarness();
  const server = await startServer(h.ctx, { port: 0, host: "127.0.0.1" });
  h.ctx.publicUrl = server.url;
  const urls = gatewayCallbackUrls(server.url);
  await h.simAdmin("PATCH", `/_sim/merchants/${h.sim.defaultApiKey}`, {
    success_url: urls.successUrl,
    failure_url: urls.failureUrl,
    webhook_url: webhook ? urls.webhookUrl : null,
  });
  return {
    h,
    server,
    async close() {
      await server.close();
      await h.close();
    },
  };
}

export type Ledger = ReturnType<typeof ledger>;

export const CARDS = {
  approves: "4111111111111111",
  approvesMastercard: "5555555555554444",
  qatarDebit: "4847000000000009",
  voidFails: "4000000000000259",
} as const;

export interface PayReply {
  status: "SUCCESS" | "FAILURE";
  redirect_url: string;
}

/** What submitting the hosted checkout page does; answers where the page sends the browser. */
export async function pay(
  h: EngineHarness,
  checkoutUrl: string,
  { card = CARDS.approves as string, cvv = "123" } = {},
): Promise<PayReply> {
  const reply = await h.simAdmin<PayReply>("POST", "/_sim/pay", {
    checkout_url: checkoutUrl,
    card_number: card,
    expiry: "12/30",
    cvv,
    name: "Test Client",
  });
  if (!reply.redirect_url)
    throw new Error("the simulator sent the browser nowhere; are the merchant URLs set?");
  return reply;
}

export interface Page {
  status: number;
  text: string;
  contentType: string;
}

/** The browser following a URL into our server. */
export async function follow(url: string): Promise<Page> {
  const response = await fetch(url, { redirect: "manual" });
  return {
    status: response.status,
    text: await response.text(),
    contentType: response.headers.get("content-type") ?? "",
  };
}

export const ledgerOf = (h: EngineHarness) => h.simAdmin<Ledger>("GET", "/_sim/ledger");

/** Polls until `check` returns a value other than undefined, or fails after the deadline. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function seedCustomer(h: EngineHarness, overrides: Record<string, unknown> = {}) {
  const { customer } = await createCustomer(h.ctx, {
    email: `customer-${randomUUID()}@example.com`,
    name: "Test Client",
    phone: "+97455555555",
    ...overrides,
  });
  return customer;
}

export function seedPlan(h: EngineHarness, overrides: Record<string, unknown> = {}) {
  return createPlan(h.ctx, {
    name: "Monthly",
    amount: "100.00",
    currency: "QAR",
    interval: "month",
    ...overrides,
  });
}

/** A new customer enrolled on a new plan (each with optional overrides): the enrollment's ids and checkout. */
export async function enrollNew(
  h: EngineHarness,
  { customer = {}, plan = {} }: { customer?: Record<string, unknown>; plan?: Record<string, unknown> } = {},
) {
  const seededCustomer = await seedCustomer(h, customer);
  const seededPlan = await seedPlan(h, plan);
  return enroll(h.ctx, { customerId: seededCustomer.id, planId: seededPlan.id, actor: "test" });
}

export async function subscriptionOf(h: EngineHarness, id: string) {
  const [row] = await h.ctx.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (!row) throw new Error(`no subscription ${id}`);
  return row;
}

export async function enrollmentOf(h: EngineHarness, id: string) {
  const [row] = await h.ctx.db.select().from(enrollments).where(eq(enrollments.id, id));
  if (!row) throw new Error(`no enrollment ${id}`);
  return row;
}

/** Moves an enrolment's creation back `hours` on Postgres's clock, which the pending sweep reads. */
export function ageEnrollment(h: EngineHarness, enrollmentId: string, hours: number) {
  return h.ctx.db.$client`
    update enrollments set created_at = now() - make_interval(hours => ${hours}) where id = ${enrollmentId}::uuid`;
}

export function paymentMethodsOf(h: EngineHarness, subscriptionId: string) {
  return h.ctx.db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.subscriptionId, subscriptionId))
    .orderBy(asc(paymentMethods.issuedAt), asc(paymentMethods.createdAt));
}

export function eventsOf(h: EngineHarness, subscriptionId: string) {
  return h.ctx.db
    .select()
    .from(events)
    .where(eq(events.subscriptionId, subscriptionId))
    .orderBy(asc(events.id));
}

export const typesOf = (rows: { type: string }[]) => rows.map((row) => row.type);
