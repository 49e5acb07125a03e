import type { DocumentSeries } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import type { DocumentLanguage } from "../documents/index.js";
import { isDocumentSignature } from "../messages/index.js";
import {
  type DocumentFormat,
  type PrintContext,
  type PrintedDocument,
  printDocument,
} from "./print-document.js";

/**
 * Rule: a signed link (messages/document-links.ts) opens its document, and only its own, with no
 * login: the signature is checked first, in constant time, before anything is read, so a wrong
 * signature and an unknown document both give null and the link tells nobody which ids exist.
 */
export function openSignedDocument(
  ctx: PrintContext & Pick<EngineContext, "vault">,
  link: { kind: DocumentSeries; id: string; signature: string },
  format: DocumentFormat,
  asked?: DocumentLanguage,
): Promise<PrintedDocument | null> {
  if (!isDocumentSignature(ctx, link.kind, link.id, link.signature)) return Promise.resolve(null);
  return printDocument(ctx, link.kind, link.id, format, asked);
}
