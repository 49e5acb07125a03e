/**
 * Receipts and credit notes for the people who read them: the customer through a signed link (no
 * login), the portal, the merchant's API, CLI and ops dashboard. The documents module lays them
 * out; this one finds them, links them, and prints them for the merchant configured, in the
 * language the customer reads.
 */
export { DOCUMENT_LANGUAGES } from "./document-language.js";
export { type DocumentLinks, documentLinks } from "./document-links.js";
export { findCreditNote, findReceipt } from "./find-documents.js";
export {
  creditNoteOfRefund,
  documentsOfCharges,
  type IssuedCreditNote,
  type IssuedDocument,
  type IssuedReceipt,
  receiptOfCharge,
} from "./issued-documents.js";
export { openSignedDocument } from "./open-signed-document.js";
export { printDocument } from "./print-document.js";
