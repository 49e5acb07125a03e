/**
 * Receipts and credit notes as documents: loaded from their rows with everything they print, and
 * rendered as a standalone HTML page or a PDF, in English, Arabic, or both.
 */
export { renderDocumentHtml } from "./html.js";
export { loadCreditNote } from "./load-credit-note.js";
export { loadReceipt } from "./load-receipt.js";
export type { DocumentLanguage, DocumentModel, MerchantIdentity } from "./model.js";
export { renderDocumentPdf } from "./pdf.js";
