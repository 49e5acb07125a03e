import { timingSafeEqual } from "node:crypto";
import type { DocumentSeries } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";

/**
 * Rule: a receipt or credit note is opened from a message by a signed link,
 * `<public URL>/documents/receipt/<id>/<signature>` (`/documents/credit-note/…` for a credit
 * note), with `.pdf` after the signature for the PDF. The signature is an HMAC of the document's
 * kind and id under the token vault's key (as payment links are signed, src/charging/
 * payment-link-url.ts), with a purpose label of its own so no other link's signature opens a
 * document. It needs no storage, is the same in every message and both formats, and cannot be
 * moved to another document; rotating TOKEN_ENCRYPTION_KEY changes every link.
 */
export const DOCUMENTS_PATH = "/documents";

/** The path segment naming each kind of document. */
export const DOCUMENT_PATH_KIND: Readonly<Record<DocumentSeries, string>> = {
  receipt: "receipt",
  credit_note: "credit-note",
};

type Signer = Pick<EngineContext, "vault">;

export function documentSignature(ctx: Signer, kind: DocumentSeries, id: string): string {
  return Buffer.from(ctx.vault.fingerprint(`document:${kind}:v1:${id}`), "hex").toString("base64url");
}

/** Whether a presented signature is the document's, compared in constant time. */
export function isDocumentSignature(
  ctx: Signer,
  kind: DocumentSeries,
  id: string,
  presented: string,
): boolean {
  const expected = Buffer.from(documentSignature(ctx, kind, id));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function documentUrl(
  ctx: Signer & Pick<EngineContext, "publicUrl">,
  kind: DocumentSeries,
  id: string,
  format: "html" | "pdf",
): string {
  const base = ctx.publicUrl.replace(/\/+$/, "");
  const suffix = format === "pdf" ? ".pdf" : "";
  return `${base}${DOCUMENTS_PATH}/${DOCUMENT_PATH_KIND[kind]}/${id}/${documentSignature(ctx, kind, id)}${suffix}`;
}
