import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import {
  type DocumentLanguage,
  type DocumentModel,
  renderDocumentPdf,
} from "../../../src/documents/index.js";
import { CREDIT_NOTE, RECEIPT } from "./sample-models.js";

/**
 * The PDFs read back with MuPDF, as a PDF reader would: its text extraction gives each line in
 * reading order, so the figures are found whole (an amount turned around would not match) and
 * Arabic words come back in logical order.
 */

function pageText(pdf: Buffer): string {
  const document = mupdf.Document.openDocument(pdf, "application/pdf");
  expect(document.countPages()).toBe(1);
  return document.loadPage(0).toStructuredText("preserve-whitespace").asText();
}

const FIGURES = ["1,450.00 QAR", "-145.00 QAR", "-70.50 QAR", "1,073.48 QAR", "161.02 QAR", "1,234.50 QAR"];

const WORDS: Record<DocumentLanguage, Record<DocumentModel["kind"], string[]>> = {
  en: {
    receipt: ["Receipt", "Total paid", "Credit applied", "Thank you for your payment."],
    credit_note: ["Credit note", "Total refunded", "Original receipt", "Completed"],
  },
  ar: {
    receipt: ["إيصال", "العميل", "الوصف", "المبلغ", "الرصيد المستخدم"],
    credit_note: ["إشعار دائن", "العميل", "الرصيد المستخدم", "مكتمل"],
  },
  bilingual: {
    receipt: ["إيصال", "Receipt", "العميل", "Customer", "Total paid"],
    credit_note: ["إشعار دائن", "Credit note", "Total refunded", "مكتمل"],
  },
};

describe("renderDocumentPdf", () => {
  describe.each([
    ["receipt", RECEIPT],
    ["credit note", CREDIT_NOTE],
  ] as const)("a %s", (_name, model) => {
    it.each(["en", "ar", "bilingual"] as const)(
      "in %s: one page with its number, figures and words",
      async (language) => {
        const pdf = await renderDocumentPdf(model, { language });
        expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
        const text = pageText(pdf);
        expect(text).toContain(model.number);
        for (const figure of FIGURES) expect(text).toContain(figure);
        expect(text).toContain("•••• 4242");
        expect(text).toContain("TX-20250105-000381");
        for (const word of WORDS[language][model.kind]) expect(text).toContain(word);
      },
    );
  });

  it("prints a credit note's refund reference and the receipt it returns", async () => {
    const text = pageText(await renderDocumentPdf(CREDIT_NOTE, { language: "en" }));
    expect(text).toContain("RF-20250120-000017");
    expect(text).toContain("RCT-000042");
  });

  it("embeds its fonts and takes its dates from the document, so the same model gives the same bytes", async () => {
    const first = await renderDocumentPdf(RECEIPT, { language: "ar" });
    const second = await renderDocumentPdf(RECEIPT, { language: "ar" });
    expect(first.equals(second)).toBe(true);
    const document = mupdf.Document.openDocument(first, "application/pdf");
    expect(document.getMetaData("info:CreationDate")).toBe("D:20250105073000Z");
    expect(document.getMetaData("info:Title")).toBe("إيصال RCT-000042");
    const raw = first.toString("latin1");
    expect(raw).toContain("IBMPlexSansArabic");
    expect(raw).toContain("/FontFile2");
  });

  it("leaves out what a charge of zero does not have: tax, card, transaction", async () => {
    const free: DocumentModel = {
      ...RECEIPT,
      lines: [{ kind: "credit", amountMinor: 0 }],
      subtotalMinor: 0,
      tax: null,
      totalMinor: 0,
      payment: { cardLast4: null, transactionId: null, paidAt: null },
    };
    const text = pageText(await renderDocumentPdf(free, { language: "en" }));
    expect(text).toContain("0.00 QAR");
    expect(text).not.toContain("VAT");
    expect(text).not.toContain("Transaction");
  });
});
