import { z } from "zod";
import type { DocumentSeries } from "../billing/index.js";
import type { Config } from "../config/index.js";
import type { EngineContext } from "../context/index.js";
import {
  type DocumentLanguage,
  type DocumentModel,
  loadCreditNote,
  loadReceipt,
  renderDocumentHtml,
  renderDocumentPdf,
} from "../documents/index.js";
import { documentLanguage } from "./document-language.js";
import { type MerchantConfig, merchantIdentity } from "./merchant-identity.js";

/**
 * A receipt or a credit note by its own id, printed for whoever may have it (a signed link, the
 * API, the CLI: each checks that first) as the standalone HTML page or the PDF, in the language
 * document-language.ts chooses; null when there is no such document.
 */

export type DocumentFormat = "html" | "pdf";

export interface PrintedDocument {
  /** As printed: RCT-000042, CN-000007; also the PDF's file name. */
  number: string;
  contentType: string;
  body: string | Buffer;
}

export type PrintContext = Pick<EngineContext, "db"> & {
  config: MerchantConfig & Pick<Config, "RECEIPT_BILINGUAL">;
};

function loadModel(ctx: PrintContext, kind: DocumentSeries, id: string): Promise<DocumentModel | null> {
  const merchant = merchantIdentity(ctx.config);
  return kind === "receipt"
    ? loadReceipt(ctx.db, { receiptId: id }, merchant)
    : loadCreditNote(ctx.db, { creditNoteId: id }, merchant);
}

export async function printDocument(
  ctx: PrintContext,
  kind: DocumentSeries,
  id: string,
  format: DocumentFormat,
  asked?: DocumentLanguage,
): Promise<PrintedDocument | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const model = await loadModel(ctx, kind, id);
  if (!model) return null;
  const language = documentLanguage(ctx.config, model.customer.language, asked);
  if (format === "pdf") {
    const body = await renderDocumentPdf(model, { language });
    return { number: model.number, contentType: "application/pdf", body };
  }
  const body = renderDocumentHtml(model, { language });
  return { number: model.number, contentType: "text/html; charset=utf-8", body };
}
