import { z } from "zod";
import type { EngineContext } from "../../context/index.js";
import {
  DOCUMENT_LANGUAGES,
  documentLinks,
  type IssuedCreditNote,
  type IssuedDocument,
  type IssuedReceipt,
} from "../../customer-documents/index.js";
import { iso, moneySchema, presentMoney, timestamp } from "./common.js";

/**
 * Receipts and credit notes as the API shows them (GET /v1/charges/:id/receipt,
 * /v1/refunds/:id/credit-note): the numbered document with its amount, the tax inside it, and the
 * signed links the customer's message carries, which open it without a login.
 */

const taxSchema = z
  .object({
    label: z.string().describe("As printed, e.g. VAT"),
    rate_percent: z.number().describe("e.g. 15 for 15 %"),
    amount: moneySchema.describe("The tax included in the amount (prices include tax)"),
  })
  .nullable()
  .describe("Null when the document was issued at a tax rate of 0: it prints no tax line");

const documentFields = {
  id: z.uuid(),
  charge_id: z.uuid(),
  customer_id: z.uuid(),
  issued_at: timestamp,
  amount: moneySchema,
  tax: taxSchema,
  url: z
    .url()
    .describe("The printable page, signed: it opens without a login, so give it to the customer only"),
  pdf_url: z.url().describe("The same document as a PDF"),
};

export const receiptSchema = z
  .object({ number: z.string().describe("As printed, e.g. RCT-000042"), ...documentFields })
  .meta({ id: "Receipt" });

export const creditNoteSchema = z
  .object({
    number: z.string().describe("As printed, e.g. CN-000007"),
    refund_id: z.uuid(),
    ...documentFields,
  })
  .meta({ id: "CreditNote" });

type Signer = Pick<EngineContext, "vault" | "publicUrl">;

function presentDocument(document: IssuedDocument, signer: Signer) {
  const links = documentLinks(signer, document);
  const { tax, currency } = document;
  return {
    number: document.number,
    id: document.id,
    charge_id: document.chargeId,
    customer_id: document.customerId,
    issued_at: iso(document.issuedAt),
    amount: presentMoney(document.amountMinor, currency),
    tax:
      tax === null
        ? null
        : {
            label: tax.label,
            rate_percent: tax.rateBp / 100,
            amount: presentMoney(tax.includedMinor, currency),
          },
    url: links.html,
    pdf_url: links.pdf,
  };
}

export function presentReceipt(receipt: IssuedReceipt, signer: Signer): z.infer<typeof receiptSchema> {
  return presentDocument(receipt, signer);
}

export function presentCreditNote(note: IssuedCreditNote, signer: Signer): z.infer<typeof creditNoteSchema> {
  const { number, ...rest } = presentDocument(note, signer);
  return { number, refund_id: note.refundId, ...rest };
}

export const documentPdfQuery = z.object({
  lang: z
    .enum(DOCUMENT_LANGUAGES)
    .optional()
    .describe("Print in this language; default: both when RECEIPT_BILINGUAL is set, else the customer's"),
});

/** A PDF reply, for the OpenAPI document: the body is the file itself. */
export const pdfReply = {
  description: "The document as a PDF, shown inline and named after its number",
  content: { "application/pdf": { schema: z.string().meta({ format: "binary" }) } },
} as const;
