import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControllableClock } from "../../src/clock/index.js";
import { createTokenVault, isSealedText, openSealedText, sealText } from "../../src/crypto/index.js";
import { webhookEndpoints } from "../../src/db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../../src/events/index.js";
import { silentLogger } from "../../src/logger/index.js";
import {
  createWebhookEndpoint,
  deliverWebhook,
  listDeliveries,
  resealWebhookSecrets,
  type WebhookContext,
} from "../../src/webhooks/index.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";
import { disableAllEndpoints, RECEIVER_HOSTS, TEST_VAULT, webhookTestContext } from "./fixtures.js";
import { WebhookReceiver } from "./receiver.js";

let t: TestDatabase;
let receiver: WebhookReceiver;
const clock = new ControllableClock();

beforeAll(async () => {
  t = await createTestDatabase();
});
beforeEach(async () => {
  receiver = await WebhookReceiver.start();
});
afterEach(async () => {
  await receiver.close();
  await disableAllEndpoints(t.db);
});
afterAll(() => t?.drop());

const context = (overrides: Partial<WebhookContext> = {}): WebhookContext => ({
  ...webhookTestContext(t.db, RECEIVER_HOSTS),
  clock,
  logger: silentLogger,
  timeoutMs: 2_000,
  ...overrides,
});

async function storedSecret(endpointId: string): Promise<string> {
  const [row] = await t.db
    .select({ secret: webhookEndpoints.secret })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, endpointId));
  return row!.secret;
}

async function deliverOneEvent(ctx: WebhookContext, endpointId: string) {
  const event = await recordEvent(t.db, {
    type: EVENT_TYPES.subscriptionActivated,
    actor: "system",
    occurredAt: clock.now(),
    data: {},
  });
  const [delivery] = await listDeliveries(t.db, { eventId: event.id, endpointId });
  return deliverWebhook(ctx, delivery!.id);
}

/** An endpoint as rows written before secrets were sealed hold it: the secret in clear. */
async function legacyEndpoint(secret: string): Promise<string> {
  const [row] = await t.db
    .insert(webhookEndpoints)
    .values({ url: receiver.url, secret })
    .returning({ id: webhookEndpoints.id });
  return row!.id;
}

describe("webhook signing secrets at rest", () => {
  it("are stored sealed, never in clear, and still sign what the receiver verifies", async () => {
    const endpoint = await createWebhookEndpoint(context(), { url: receiver.url });
    receiver.secret = endpoint.secret;

    const stored = await storedSecret(endpoint.id);
    expect(stored).toMatch(/^v1:test:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/]+=*$/);
    expect(stored).not.toContain(endpoint.secret);
    expect(stored).not.toContain(endpoint.secret.slice("whsec_".length, 20));
    const [dump] = await t.sql<
      { text: string }[]
    >`select string_agg(t::text, ' ') as text from webhook_endpoints t`;
    expect(dump!.text).not.toContain(endpoint.secret);
    expect(openSealedText(TEST_VAULT, stored)).toBe(endpoint.secret);

    expect(await deliverOneEvent(context(), endpoint.id)).toMatchObject({ status: "delivered" });
    const [request] = await receiver.waitForCount(1);
    expect(request!.verification.ok).toBe(true);
  });

  it("seal the same secret differently each time", () => {
    expect(sealText(TEST_VAULT, "whsec_same")).not.toBe(sealText(TEST_VAULT, "whsec_same"));
  });

  it("keep working for a row from before sealing, which reseal then seals once", async () => {
    const clear = `whsec_${randomBytes(32).toString("base64url")}`;
    const id = await legacyEndpoint(clear);
    receiver.secret = clear;

    expect(await deliverOneEvent(context(), id)).toMatchObject({ status: "delivered" });
    expect((await receiver.waitForCount(1))[0]!.verification.ok).toBe(true);

    const ctx = { db: t.db, vault: TEST_VAULT, logger: silentLogger };
    expect((await resealWebhookSecrets(ctx)).resealed).toBeGreaterThanOrEqual(1);
    const sealed = await storedSecret(id);
    expect(isSealedText(sealed)).toBe(true);
    expect(sealed).not.toContain(clear);
    expect(openSealedText(TEST_VAULT, sealed)).toBe(clear);
    expect(await resealWebhookSecrets(ctx)).toMatchObject({ resealed: 0 });
    expect(await storedSecret(id)).toBe(sealed);

    expect(await deliverOneEvent(context(), id)).toMatchObject({ status: "delivered" });
    expect((await receiver.waitForCount(2))[1]!.verification.ok).toBe(true);
  });

  it("are resealed under the current key after a rotation", async () => {
    const oldKey = randomBytes(32);
    const retired = createTokenVault({ currentKeyId: "old", currentKey: oldKey });
    const id = await legacyEndpoint(sealText(retired, "whsec_rotated_secret_value"));
    const rotated = createTokenVault({
      currentKeyId: "new",
      currentKey: randomBytes(32),
      oldKeys: { old: oldKey },
    });

    // Rows of the other tests are under the "test" key, which this vault lacks: left alone, not fatal.
    const result = await resealWebhookSecrets({ db: t.db, vault: rotated, logger: silentLogger });
    expect(result.resealed).toBe(1);
    expect(result.unreadable).toBeGreaterThanOrEqual(1);

    const stored = await storedSecret(id);
    expect(stored.startsWith("v1:new:")).toBe(true);
    expect(openSealedText(rotated, stored)).toBe("whsec_rotated_secret_value");
  });

  it("fail the attempt, sending nothing, when the secret's key is unknown", async () => {
    const stranger = createTokenVault({ currentKeyId: "gone", currentKey: randomBytes(32) });
    const id = await legacyEndpoint(sealText(stranger, "whsec_sealed_with_a_lost_key"));

    const outcome = await deliverOneEvent(context(), id);

    expect(outcome).toMatchObject({ status: "retry_scheduled", statusCode: null });
    expect(outcome).toHaveProperty(
      "error",
      expect.stringMatching(/^signing secret could not be opened: .*"gone"/),
    );
    expect(receiver.received).toHaveLength(0);
  });
});
