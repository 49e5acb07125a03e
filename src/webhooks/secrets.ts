import { and, eq } from "drizzle-orm";
import {
  isSealedText,
  openSealedText,
  sealedTextKeyId,
  sealText,
  type TokenVault,
  TokenVaultError,
} from "../crypto/index.js";
import type { Db } from "../db/index.js";
import { webhookEndpoints } from "../db/schema/index.js";
import type { Logger } from "../logger/index.js";

/**
 * Endpoint signing secrets at rest. webhook_endpoints.secret is a text column and stays one: it
 * holds the secret sealed with the token vault as `v1:<key id>:<nonce>:<tag>:<ciphertext>`
 * (src/crypto/sealed-text.ts), opened only to sign a delivery.
 *
 * Rows written before secrets were sealed hold them in clear. Every engine process reseals them
 * when it boots, right after migrating (createEngine, which is where the vault is), and reseals
 * rows sealed under a retired key with the current one. Until then, and for a row an older
 * process writes during a rolling deploy, delivery still reads a clear secret as it is.
 */

/** The secret to sign with, from its stored form (sealed, or clear from before sealing). */
export function openWebhookSecret(vault: TokenVault, stored: string): string {
  return isSealedText(stored) ? openSealedText(vault, stored) : stored;
}

/**
 * Seals every clear secret, and reseals those under an old key. Each row is updated only if it
 * still holds what was read, so processes booting together never seal a secret twice. A secret
 * under a key this vault lacks is left as it is and counted: a missing old key must not stop the
 * engine from booting; its deliveries fail, each saying so, until the key is configured.
 */
export async function resealWebhookSecrets(ctx: {
  db: Db;
  vault: TokenVault;
  logger: Logger;
}): Promise<{ resealed: number; unreadable: number }> {
  const rows = await ctx.db
    .select({ id: webhookEndpoints.id, secret: webhookEndpoints.secret })
    .from(webhookEndpoints);
  let resealed = 0;
  let unreadable = 0;
  for (const row of rows) {
    if (isSealedText(row.secret) && sealedTextKeyId(row.secret) === ctx.vault.currentKeyId) continue;
    let clear: string;
    try {
      clear = openWebhookSecret(ctx.vault, row.secret);
    } catch (error) {
      if (!(error instanceof TokenVaultError)) throw error;
      unreadable += 1;
      ctx.logger.warn(
        { component: "webhooks", endpointId: row.id, err: error },
        "webhook signing secret could not be opened to reseal it",
      );
      continue;
    }
    const updated = await ctx.db
      .update(webhookEndpoints)
      .set({ secret: sealText(ctx.vault, clear) })
      .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.secret, row.secret)))
      .returning({ id: webhookEndpoints.id });
    resealed += updated.length;
  }
  if (resealed > 0) {
    ctx.logger.info(
      { component: "webhooks", resealed },
      "webhook signing secrets sealed with the current key",
    );
  }
  return { resealed, unreadable };
}
