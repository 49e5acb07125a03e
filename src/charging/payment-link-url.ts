import { timingSafeEqual } from "node:crypto";
import type { EngineContext } from "../context/index.js";

/**
 * Rule: a payment link is `<public URL>/pay/<charge id>/<signature>`, the signature an HMAC of the
 * charge id under a key derived from the token vault's current key. So the link is bound to its
 * charge, cannot be guessed or moved to another charge, needs no storage, and is the same every
 * time it is shown (API, webhooks, portal, reminders). Rotating TOKEN_ENCRYPTION_KEY changes every
 * link; the API shows the new ones.
 *
 * The customer's other pages of collection by link are signed the same way, each for its own
 * purpose so one page's signature opens no other: a subscription's "what I owe" page
 * (`/pay/subscription/<id>/<signature>`) and the offer to pay by link after a card-saving
 * checkout failed (`/pay/enrollment/<id>/<signature>`).
 */
export const PAYMENT_LINK_PREFIX = "/pay";

export type LinkPurpose = "payment-link" | "subscription" | "enrollment";

type Signer = Pick<EngineContext, "vault">;

export function linkSignature(ctx: Signer, purpose: LinkPurpose, id: string): string {
  return Buffer.from(ctx.vault.fingerprint(`${purpose}:v1:${id}`), "hex").toString("base64url");
}

/** Whether a presented signature is the id's for this purpose, compared in constant time. */
export function isLinkSignature(ctx: Signer, purpose: LinkPurpose, id: string, presented: string): boolean {
  const expected = Buffer.from(linkSignature(ctx, purpose, id));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** `<public URL>/pay[/<kind>]/<id>/<signature>`. */
export function signedLinkUrl(
  ctx: Signer & Pick<EngineContext, "publicUrl">,
  purpose: LinkPurpose,
  id: string,
): string {
  const base = ctx.publicUrl.replace(/\/+$/, "");
  const kind = purpose === "payment-link" ? "" : `/${purpose}`;
  return `${base}${PAYMENT_LINK_PREFIX}${kind}/${id}/${linkSignature(ctx, purpose, id)}`;
}

export function paymentLinkUrl(ctx: Signer & Pick<EngineContext, "publicUrl">, chargeId: string): string {
  return signedLinkUrl(ctx, "payment-link", chargeId);
}

export function isPaymentLinkSignature(ctx: Signer, chargeId: string, presented: string): boolean {
  return isLinkSignature(ctx, "payment-link", chargeId, presented);
}
