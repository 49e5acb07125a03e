import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DateTime } from "luxon";
import { createTokenVault } from "../../src/crypto/index.js";
import type { Db } from "../../src/db/index.js";
import { paymentMethods, subscriptions } from "../../src/db/schema/index.js";
import {
  disableWebhookEndpoint,
  type EndpointContext,
  listWebhookEndpoints,
  type ResolveHost,
  type WebhookContext,
} from "../../src/webhooks/index.js";
import { seedCustomerAndPlan } from "../db/fixtures.js";

export { seedCustomerAndPlan };

/** Every name resolves to a documentation address (TEST-NET-3), which the address policy lets through. */
export const resolvePublic: ResolveHost = async () => [{ address: "203.0.113.10", family: 4 }];

/** WEBHOOK_ALLOWED_HOSTS for tests that deliver to a WebhookReceiver: loopback is refused by default. */
export const RECEIVER_HOSTS = ["127.0.0.1"];

/** Seals the endpoints' signing secrets, as the engine's vault does. */
export const TEST_VAULT = createTokenVault({ currentKeyId: "test", currentKey: randomBytes(32) });

/** What creating endpoints (and, with a clock and logger, delivering) needs, without real DNS. */
export function webhookTestContext(
  db: Db,
  allowedHosts: string[] = [],
): Required<EndpointContext> & Pick<WebhookContext, "publicUrl"> {
  return {
    db,
    config: { WEBHOOK_ALLOWED_HOSTS: allowedHosts },
    resolve: resolvePublic,
    vault: TEST_VAULT,
    publicUrl: "https://billing.example",
  };
}

/** Disables every endpoint (failing their pending deliveries), so each test starts with none. */
export async function disableAllEndpoints(db: Db): Promise<void> {
  for (const endpoint of await listWebhookEndpoints(db)) {
    if (endpoint.enabled) await disableWebhookEndpoint(db, endpoint.id);
  }
}

export interface CardFixture {
  now: DateTime;
  expiresAt: DateTime;
  subscriptionStatus?: "active" | "past_due" | "canceled";
  deactivatedAt?: DateTime;
  unusableAt?: DateTime;
}

/** A subscription whose current card is a (sealed-looking) recurring token expiring at `expiresAt`. */
export async function seedSubscriptionWithCard(db: Db, card: CardFixture) {
  const { customer, plan } = await seedCustomerAndPlan(db);
  const status = card.subscriptionStatus ?? "active";
  const anchor = card.now.minus({ months: 5 }).toJSDate();
  const [subscription] = await db
    .insert(subscriptions)
    .values({
      customerId: customer.id,
      planId: plan.id,
      status,
      billingAnchor: anchor,
      currentPeriodStart: card.now.minus({ days: 10 }).toJSDate(),
      currentPeriodEnd: card.now.plus({ days: 20 }).toJSDate(),
      nextBillingAt: status === "canceled" ? null : card.now.plus({ days: 20 }).toJSDate(),
      canceledAt: status === "canceled" ? card.now.toJSDate() : null,
    })
    .returning();
  const [paymentMethod] = await db
    .insert(paymentMethods)
    .values({
      customerId: customer.id,
      subscriptionId: subscription!.id,
      kind: "recurring",
      tokenCiphertext: randomBytes(24),
      tokenNonce: randomBytes(12),
      tokenTag: randomBytes(16),
      tokenKeyId: "test",
      tokenFingerprint: randomBytes(32).toString("hex"),
      cardLast4: "4242",
      cardExpiryMonth: "12/30",
      amountMinor: 10_000,
      currency: "QAR",
      issuedAt: anchor,
      expiresAt: card.expiresAt.toJSDate(),
      deactivatedAt: card.deactivatedAt?.toJSDate() ?? null,
      deactivationReason: card.deactivatedAt ? "replaced" : null,
      unusableAt: card.unusableAt?.toJSDate() ?? null,
      unusableReason: card.unusableAt ? "expired at the gateway" : null,
    })
    .returning();
  await db
    .update(subscriptions)
    .set({ paymentMethodId: paymentMethod!.id })
    .where(eq(subscriptions.id, subscription!.id));
  return { customer, subscription: subscription!, paymentMethod: paymentMethod! };
}
