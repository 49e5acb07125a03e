import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DateTime } from "luxon";
import { charges, customers, paymentMethods, plans, subscriptions } from "../../../src/db/schema/index.js";
import { planOfSubscription } from "../../db/fixtures.js";
import type { EngineHarness } from "../../support/engine.js";

/**
 * Rows for the invoicing and cancellation suites: a customer on a monthly plan (Asia/Qatar), and a
 * card whose token is real in the harness's simulator (a paid recurring checkout), sealed by the vault.
 */

type SubscriptionStatus = (typeof subscriptions.$inferInsert)["status"];

export interface SeedOptions {
  status?: SubscriptionStatus;
  anchor: DateTime;
  productId?: string | null;
  phone?: string | null;
}

export async function seedSubscription(h: EngineHarness, options: SeedOptions) {
  const { db } = h.ctx;
  const [customer] = await db
    .insert(customers)
    .values({
      email: `c-${randomUUID()}@example.com`,
      name: "Amal Al-Thani",
      phone: options.phone ?? "+97455555555",
    })
    .returning();
  const [plan] = await db
    .insert(plans)
    .values({
      name: "Gold monthly",
      amountMinor: 10_000,
      currency: "QAR",
      intervalUnit: "month",
      intervalCount: 1,
      productId: options.productId ?? null,
    })
    .returning();
  const periodEnd = options.anchor.plus({ months: 1 });
  const status = options.status ?? "active";
  const live = status === "active" || status === "trialing" || status === "past_due";
  const [subscription] = await db
    .insert(subscriptions)
    .values({
      customerId: customer!.id,
      planId: plan!.id,
      status,
      billingAnchor: options.anchor.toJSDate(),
      currentPeriodStart: options.anchor.toJSDate(),
      currentPeriodEnd: periodEnd.toJSDate(),
      nextBillingAt: live ? periodEnd.toJSDate() : null,
      pausedAt: status === "paused" ? options.anchor.toJSDate() : null,
    })
    .returning();
  return { customer: customer!, plan: plan!, subscription: subscription! };
}

type ChargeStatus = (typeof charges.$inferInsert)["status"];

export async function seedCharge(
  h: EngineHarness,
  subscriptionId: string,
  periodStart: DateTime,
  status: ChargeStatus = "uncollectible",
) {
  const waiting = status === "scheduled" || status === "retrying";
  const [charge] = await h.ctx.db
    .insert(charges)
    .values({
      subscriptionId,
      planId: planOfSubscription(subscriptionId),
      periodStart: periodStart.toJSDate(),
      periodEnd: periodStart.plus({ months: 1 }).toJSDate(),
      amountMinor: 10_000,
      currency: "QAR",
      status,
      attemptCount: waiting || status === "paid" ? 0 : 5,
      nextAttemptAt: waiting ? periodStart.toJSDate() : null,
      ...(status === "paid" ? { paidAt: periodStart.toJSDate(), paidTransactionId: randomUUID() } : {}),
    })
    .returning();
  return charge!;
}

interface SimLedger {
  payments: { order_id: string; transaction_id: string }[];
  tokens: { card_token: string; source_transaction_id: string; status: string }[];
}

/** Pays a recurring checkout in the simulator and returns the card token it issued. */
export async function simulatorToken(h: EngineHarness, email: string): Promise<string> {
  const orderId = randomUUID();
  const { checkoutUrl } = await h.ctx.gateway.legacy.addTransaction({
    amount: { minor: 10_000, currency: "QAR" },
    orderId,
    customerEmail: email,
    isRecurring: true,
  });
  await h.simAdmin("POST", "/_sim/pay", {
    checkout_url: checkoutUrl,
    card_number: "4111111111111111",
    expiry: "12/30",
    cvv: "123",
    name: "Amal Al-Thani",
  });
  const ledger = await h.simAdmin<SimLedger>("GET", "/_sim/ledger");
  const payment = ledger.payments.find((p) => p.order_id === orderId);
  const token = ledger.tokens.find((t) => t.source_transaction_id === payment?.transaction_id);
  if (!token) throw new Error(`the simulator issued no token for order ${orderId}`);
  return token.card_token;
}

export async function tokenStatus(h: EngineHarness, cardToken: string): Promise<string | undefined> {
  const ledger = await h.simAdmin<SimLedger>("GET", "/_sim/ledger");
  return ledger.tokens.find((t) => t.card_token === cardToken)?.status;
}

/** A card with a live simulator token, saved for the subscription and made its current card. */
export async function seedCard(h: EngineHarness, seeded: Awaited<ReturnType<typeof seedSubscription>>) {
  const cardToken = await simulatorToken(h, seeded.customer.email);
  const sealed = h.ctx.vault.encrypt(cardToken);
  const issuedAt = h.clock.now();
  const [card] = await h.ctx.db
    .insert(paymentMethods)
    .values({
      customerId: seeded.customer.id,
      subscriptionId: seeded.subscription.id,
      kind: "recurring",
      tokenCiphertext: sealed.ciphertext,
      tokenNonce: sealed.nonce,
      tokenTag: sealed.tag,
      tokenKeyId: sealed.keyId,
      tokenFingerprint: h.ctx.vault.fingerprint(cardToken),
      cardLast4: "1111",
      amountMinor: 10_000,
      currency: "QAR",
      issuedAt: issuedAt.toJSDate(),
      expiresAt: issuedAt.plus({ months: 6 }).toJSDate(),
    })
    .returning();
  await h.ctx.db
    .update(subscriptions)
    .set({ paymentMethodId: card!.id })
    .where(eq(subscriptions.id, seeded.subscription.id));
  return { card: card!, cardToken };
}
