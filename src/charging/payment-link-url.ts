import { timingSafeEqual } from "node:crypto";
import type { EngineContext } from "../context/index.js";

/**
 * Rule: a payment link is `<public URL>/pay/<charge id>/<signature>`, the signature an HMAC of the
 * charge id under a key derived from the token vault's current key. So the link is bound to its
 * charge, cannot be guessed or moved to another charge, needs no storage, and is the same every
 * time it is shown (API, webhooks, portal, reminders). Rotating TOKEN_ENCRYPTION_KEY changes every
 * link; the API shows the new ones.
 */
export const PAYMENT_LINK_PREFIX = "/pay";

type Signer = Pick<EngineContext, "vault">;

export function paymentLinkSignature(ctx: Signer, chargeId: string): string {
  return Buffer.from(ctx.vault.fingerprint(`payment-link:v1:${chargeId}`), "hex").toString("base64url");
}

export function paymentLinkUrl(ctx: Signer & Pick<EngineContext, "publicUrl">, chargeId: string): string {
  const base = ctx.publicUrl.replace(/\/+$/, "");
  return `${base}${PAYMENT_LINK_PREFIX}/${chargeId}/${paymentLinkSignature(ctx, chargeId)}`;
}

/** Whether a presented signature is the charge's, compared in constant time. */
export function isPaymentLinkSignature(ctx: Signer, chargeId: string, presented: string): boolean {
  const expected = Buffer.from(paymentLinkSignature(ctx, chargeId));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
