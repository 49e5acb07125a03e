import type { EngineContext } from "../context/index.js";
import { documentUrl } from "../messages/index.js";
import type { IssuedDocument } from "./issued-documents.js";

/**
 * Rule: a document is handed out by its signed links (messages/document-links.ts), the page and the
 * PDF: the same links its message carries, opened without a login by whoever holds them.
 */
export interface DocumentLinks {
  html: string;
  pdf: string;
}

export function documentLinks(
  signer: Pick<EngineContext, "vault" | "publicUrl">,
  document: Pick<IssuedDocument, "kind" | "id">,
): DocumentLinks {
  return {
    html: documentUrl(signer, document.kind, document.id, "html"),
    pdf: documentUrl(signer, document.kind, document.id, "pdf"),
  };
}
