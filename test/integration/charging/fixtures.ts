import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { DateTime } from "luxon";
import { expect, vi } from "vitest";
import { tokenExpiry, trialEnd } from "../../../src/billing/index.js";
import {
  chargeAttempts,
  charges,
  customers,
  events,
  paymentMethods,
  plans,
  subscriptions,
} from "../../../src/db/schema/index.js";
import { GatewayUnavailableError } from "../../../src/gateway/index.js";
import type { EngineHarness } from "../../support/engine.js";

/**
 * Subscriptions with real card tokens from the simulator, in the shape the enrollment service
 * leaves them: active (anchor = start = next_billing_at) or trialing (trial_end = anchor =
 * next_billing_at). The token comes the way a customer's does: AddTransaction (isRecurring or
 * autoSave, isVoid) through the engine's gateway client, the checkout paid with /_sim/pay (CVV 123),
 * then CheckStatus for payment.cardToken; it is stored sealed by the vault.
 */

export const CARDS = {
  approves: "4111111111111111",
  alwaysDeclined: "4000000000000341",
  declinedTwiceThenApproved: "4000000000000002",
  expiresNextMonth: "4000000000000069",
} as const;

const EXPIRY = "12/30";

export interface CardOptions {
  card?: string;
  kind?: "recurring" | "autosave";
  amountMinor?: number;
  currency?: string;
}

export interface SavedCard {
  paymentMethodId: string;
  cardToken: string;
}

/** Runs a setup call again (up to 5 tries) when it timed out or the gateway was unavailable. */
async function setupCall<T>(call: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError) || tries >= 5) throw error;
    }
  }
}

/** Obtains a token for `card` from the simulator and stores it as a payment method of the customer. */
export async function saveCard(
  h: EngineHarness,
  owner: { customerId: string; subscriptionId: string; email: string },
  options: CardOptions = {},
): Promise<SavedCard> {
  const { ctx } = h;
  const card = options.card ?? CARDS.approves;
  const kind = options.kind ?? "recurring";
  const amount = { minor: options.amountMinor ?? 10_000, currency: options.currency ?? "QAR" };
  // Setup, not the behaviour under test: tests that shorten the gateway timeout to provoke faults
  // must not fail here because a loaded machine answered a setup call late.
  const { orderId, checkoutUrl } = await setupCall(async () => {
    const orderId = `enr_${randomUUID()}`;
    const { checkoutUrl } = await ctx.gateway.legacy.addTransaction({
      amount,
      orderId,
      customerEmail: owner.email,
      ...(kind === "recurring" ? { isRecurring: true } : { autoSave: true }),
      isVoid: true,
    });
    return { orderId, checkoutUrl };
  });
  await h.simAdmin("POST", "/_sim/pay", {
    checkout_url: checkoutUrl,
    card_number: card,
    expiry: EXPIRY,
    cvv: "123",
    name: "Test Customer",
  });
  const lookup = await setupCall(() => ctx.gateway.legacy.checkStatus({ orderId }));
  if (!lookup.found || !lookup.payment.cardToken) throw new Error(`no card token for ${orderId}`);
  const cardToken = lookup.payment.cardToken;
  const sealed = ctx.vault.encrypt(cardToken);
  const issuedAt = ctx.clock.now();
  const [method] = await ctx.db
    .insert(paymentMethods)
    .values({
      customerId: owner.customerId,
      subscriptionId: owner.subscriptionId,
      kind,
      tokenCiphertext: sealed.ciphertext,
      tokenNonce: sealed.nonce,
      tokenTag: sealed.tag,
      tokenKeyId: sealed.keyId,
      tokenFingerprint: ctx.vault.fingerprint(cardToken),
      cardLast4: card.slice(-4),
      cardExpiryMonth: EXPIRY,
      amountMinor: amount.minor,
      currency: amount.currency,
      issuedAt: issuedAt.toJSDate(),
      expiresAt: tokenExpiry(issuedAt, EXPIRY).toJSDate(),
    })
    .returning({ id: paymentMethods.id });
  return { paymentMethodId: method!.id, cardToken };
}

export interface SubscriptionOptions extends CardOptions {
  trialDays?: number;
  timezone?: string;
  /** Units of the plan (seats); 1 by default. */
  quantity?: number;
  /** The plan's price model and its columns (flat at amountMinor by default). */
  price?: Pick<typeof plans.$inferInsert, "priceModel" | "tiers" | "packageSize">;
}

export interface CardSubscription extends SavedCard {
  subscriptionId: string;
  customerId: string;
  planId: string;
  email: string;
  /** Anchor of the billing periods: now, or the trial end. */
  anchor: DateTime;
}

/** A plan, a customer and a subscription started now on a real simulator card token. */
export async function createSubscription(
  h: EngineHarness,
  options: SubscriptionOptions = {},
): Promise<CardSubscription> {
  const { db, clock } = h.ctx;
  const trialDays = options.trialDays ?? 0;
  const timezone = options.timezone ?? "Asia/Qatar";
  const email = `c-${randomUUID()}@example.com`;
  const tiersOnly = options.price?.priceModel === "tiered" || options.price?.priceModel === "volume";
  const [customer] = await db.insert(customers).values({ email, name: "Test Customer" }).returning();
  const [plan] = await db
    .insert(plans)
    .values({
      name: "Monthly",
      // Tiered and volume prices are their tiers alone; the card is still saved for amountMinor.
      amountMinor: tiersOnly ? 0 : (options.amountMinor ?? 10_000),
      currency: options.currency ?? "QAR",
      intervalUnit: "month",
      intervalCount: 1,
      trialDays,
      billingMode: options.kind ?? "recurring",
      ...options.price,
    })
    .returning();
  const now = clock.now();
  const anchor = trialDays > 0 ? trialEnd(now, trialDays, timezone) : now.toUTC();
  const [subscription] = await db
    .insert(subscriptions)
    .values({
      customerId: customer!.id,
      planId: plan!.id,
      quantity: options.quantity ?? 1,
      status: trialDays > 0 ? "trialing" : "active",
      timezone,
      billingAnchor: anchor.toJSDate(),
      nextBillingAt: anchor.toJSDate(),
      trialEnd: trialDays > 0 ? anchor.toJSDate() : null,
    })
    .returning();
  const owner = { customerId: customer!.id, subscriptionId: subscription!.id, email };
  const saved = await saveCard(h, owner, options);
  await db
    .update(subscriptions)
    .set({ paymentMethodId: saved.paymentMethodId })
    .where(eq(subscriptions.id, subscription!.id));
  return { ...saved, ...owner, planId: plan!.id, anchor };
}

/** What the enrollment service does when a started subscription gets a new card. */
export async function replaceCard(h: EngineHarness, sub: CardSubscription, options: CardOptions = {}) {
  const saved = await saveCard(h, sub, options);
  const now = h.ctx.clock.now().toJSDate();
  await h.ctx.db
    .update(paymentMethods)
    .set({ deactivatedAt: now, deactivationReason: "replaced" })
    .where(eq(paymentMethods.id, sub.paymentMethodId));
  await h.ctx.db
    .update(subscriptions)
    .set({ paymentMethodId: saved.paymentMethodId })
    .where(eq(subscriptions.id, sub.subscriptionId));
  return saved;
}

// ---- reading the outcome -------------------------------------------------------------------

export async function chargesOf(h: EngineHarness, subscriptionId: string) {
  return h.ctx.db
    .select()
    .from(charges)
    .where(eq(charges.subscriptionId, subscriptionId))
    .orderBy(asc(charges.periodStart));
}

export async function attemptsOf(h: EngineHarness, chargeId: string) {
  return h.ctx.db
    .select()
    .from(chargeAttempts)
    .where(eq(chargeAttempts.chargeId, chargeId))
    .orderBy(asc(chargeAttempts.attemptNumber));
}

export async function subscriptionRow(h: EngineHarness, subscriptionId: string) {
  const [row] = await h.ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  return row!;
}

export async function eventTypesOf(h: EngineHarness, subscriptionId: string): Promise<string[]> {
  const rows = await h.ctx.db
    .select({ type: events.type })
    .from(events)
    .where(eq(events.subscriptionId, subscriptionId))
    .orderBy(asc(events.id));
  return rows.map((row) => row.type);
}

interface LedgerPayment {
  transaction_id: string;
  order_id: string | null;
  operation: string;
  status: "SUCCESS" | "FAILURE";
  card_token: string | null;
  amount: string;
}

/** The GetnewPayment payments the simulator recorded on this card token. */
export async function collections(h: EngineHarness, cardToken: string): Promise<LedgerPayment[]> {
  const ledger = await h.simAdmin<{ payments: LedgerPayment[] }>("GET", "/_sim/ledger");
  return ledger.payments.filter((p) => p.operation === "GetnewPayment" && p.card_token === cardToken);
}

/** Polls until `check` passes (no fixed sleeps): the worker runs in the background. */
export function eventually<T>(check: () => Promise<T>, timeout = 15_000): Promise<T> {
  return vi.waitFor(check, { timeout, interval: 25 });
}

/** Waits until the subscription's charges have these statuses, oldest period first. */
export function chargeStatuses(h: EngineHarness, subscriptionId: string, statuses: string[]) {
  return eventually(async () => {
    const rows = await chargesOf(h, subscriptionId);
    expect(rows.map((row) => row.status)).toEqual(statuses);
    return rows;
  });
}

/** Waits until the subscription's one charge matches `expected` (status, attemptCount, …) and returns it. */
export function onlyCharge(
  h: EngineHarness,
  subscriptionId: string,
  expected: { status: string; attemptCount?: number },
) {
  return eventually(async () => {
    const rows = await chargesOf(h, subscriptionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(expected);
    return rows[0]!;
  });
}
