import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { storableText } from "../billing/index.js";
import { sealText } from "../crypto/index.js";
import type { Db } from "../db/index.js";
import { webhookDeliveries, webhookEndpoints } from "../db/schema/index.js";
import { compileAllowList } from "./address-policy.js";
import type { WebhookContext } from "./context.js";
import { vetDestination } from "./destination.js";

/**
 * The merchant's own URLs that receive events. An endpoint is never deleted (its deliveries point
 * at it and are history); it is disabled instead. A URL whose host is or resolves to an internal
 * address is refused (address-policy.ts); deliveries check again when they connect. The signing
 * secret is stored sealed (secrets.ts) and shown in clear once, in the reply that creates it.
 */

const endpointInput = z.object({
  url: z.url({ protocol: /^https?$/ }).check(storableText("url")),
  /** At least 16 characters: it is the HMAC key that proves a request came from us. */
  secret: z.string().min(16).check(storableText("secret")).optional(),
});

/** The URL's host may not receive webhooks; the message says why. */
export class WebhookUrlRefusedError extends Error {
  readonly field = "url";
  constructor(readonly reason: string) {
    super(`url refused: ${reason}`);
    this.name = "WebhookUrlRefusedError";
  }
}

export type EndpointContext = Pick<WebhookContext, "db" | "config" | "resolve" | "vault">;

export type WebhookEndpointInput = z.input<typeof endpointInput>;

/** An endpoint as listed: without its secret, which is shown once, when the endpoint is created. */
export interface WebhookEndpointSummary {
  id: string;
  url: string;
  enabled: boolean;
  createdAt: Date;
}

export interface CreatedWebhookEndpoint extends WebhookEndpointSummary {
  secret: string;
}

/** A fresh signing secret: `whsec_` and 32 random bytes, base64url. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export async function createWebhookEndpoint(
  ctx: EndpointContext,
  input: WebhookEndpointInput,
): Promise<CreatedWebhookEndpoint> {
  const { url, secret } = endpointInput.parse(input);
  const refusal = await vetDestination(url, compileAllowList(ctx.config.WEBHOOK_ALLOWED_HOSTS), ctx.resolve);
  if (refusal) throw new WebhookUrlRefusedError(refusal);
  const clear = secret ?? generateWebhookSecret();
  const [row] = await ctx.db
    .insert(webhookEndpoints)
    .values({ url, secret: sealText(ctx.vault, clear) })
    .returning({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      enabled: webhookEndpoints.enabled,
      createdAt: webhookEndpoints.createdAt,
    });
  if (!row) throw new Error("webhook endpoint was not created");
  // The only time the secret leaves the engine in clear: the merchant needs it to verify.
  return { ...row, secret: clear };
}

export async function listWebhookEndpoints(db: Db): Promise<WebhookEndpointSummary[]> {
  return db
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      enabled: webhookEndpoints.enabled,
      createdAt: webhookEndpoints.createdAt,
    })
    .from(webhookEndpoints)
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

/**
 * Stops sending to an endpoint. Its pending deliveries are failed in the same transaction, with
 * the reason, rather than left pending forever: the dispatcher would otherwise keep finding them.
 * Returns false when there is no such endpoint.
 */
export async function disableWebhookEndpoint(db: Db, endpointId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ enabled: false })
      .where(eq(webhookEndpoints.id, endpointId))
      .returning({ id: webhookEndpoints.id });
    if (!endpoint) return false;
    await tx
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, lastError: "endpoint disabled" })
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")));
    return true;
  });
}
