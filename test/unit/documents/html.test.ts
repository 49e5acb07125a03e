import { describe, expect, it } from "vitest";
import { type DocumentModel, renderDocumentHtml } from "../../../src/documents/index.js";
import { CREDIT_NOTE, MERCHANT, RECEIPT } from "./sample-models.js";

const FIGURES = [
  "RCT-000042",
  "1,450.00 QAR",
  "-145.00 QAR",
  "-70.50 QAR",
  "1,073.48 QAR",
  "161.02 QAR",
  "1,234.50 QAR",
];

/** The page's text: tags dropped, entities kept as written. */
const textOf = (page: string) => page.replace(/<style>[\s\S]*?<\/style>/, "").replace(/<[^>]+>/g, " ");

describe("renderDocumentHtml", () => {
  it("is a whole standalone page with no script", () => {
    const page = renderDocumentHtml(RECEIPT, { language: "en" });
    expect(page.startsWith("<!doctype html>")).toBe(true);
    expect(page).toContain('<html lang="en" dir="ltr">');
    expect(page).toContain("<style>");
    expect(page.trimEnd().endsWith("</html>")).toBe(true);
    expect(page).not.toMatch(/<script|<link|\son\w+=/i);
  });

  it.each(["en", "ar", "bilingual"] as const)("prints every figure of the receipt (%s)", (language) => {
    const text = textOf(renderDocumentHtml(RECEIPT, { language }));
    for (const figure of FIGURES) expect(text).toContain(figure);
    expect(text).toContain("•••• 4242");
    expect(text).toContain("TX-20250105-000381");
  });

  it("writes the English receipt in English", () => {
    const text = textOf(renderDocumentHtml(RECEIPT, { language: "en" }));
    for (const words of ["Receipt", "Total paid", "VAT 15% included", "Discount 10%", "Credit applied"])
      expect(text).toContain(words);
    expect(text).toContain("5 Jan 2025 – 5 Feb 2025");
    expect(text).not.toMatch(/[\u0600-\u06FF]/);
  });

  it("writes the Arabic receipt right to left in Arabic, amounts kept left to right", () => {
    const page = renderDocumentHtml(RECEIPT, { language: "ar" });
    expect(page).toContain('<html lang="ar" dir="rtl">');
    const text = textOf(page);
    for (const words of ["إيصال", "إجمالي المدفوع", "الضريبة المشمولة VAT 15%", "خصم 10%", "الرصيد المستخدم"])
      expect(text).toContain(words);
    expect(text).toContain("5 يناير 2025 – 5 فبراير 2025");
    expect(text).not.toContain("Total paid");
    expect(page).toContain('<span dir="ltr">1,234.50 QAR</span>');
  });

  it("stacks English under each Arabic label on a bilingual page, dates written once for both", () => {
    const page = renderDocumentHtml(CREDIT_NOTE, { language: "bilingual" });
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain(
      '<span class="main" lang="ar">إجمالي المبلغ المسترد</span><span class="sub" lang="en"><bdi dir="ltr">Total refunded</bdi></span>',
    );
    const text = textOf(page);
    expect(text).toContain("2025-01-05 – 2025-02-05");
    expect(text).toContain("مكتمل / Completed");
  });

  it("prints a credit note's refund: the receipt it returns, its reference and status", () => {
    const text = textOf(renderDocumentHtml(CREDIT_NOTE, { language: "en" }));
    for (const words of [
      "Credit note",
      "CN-000007",
      "Total refunded",
      "Original receipt",
      "RCT-000042",
      "Refunded transaction",
      "RF-20250120-000017",
      "Completed",
    ])
      expect(text).toContain(words);
  });

  it("prints no tax lines at a rate of 0", () => {
    const text = textOf(renderDocumentHtml({ ...RECEIPT, tax: null }, { language: "en" }));
    expect(text).not.toContain("VAT");
    expect(text).not.toContain("Subtotal");
    expect(text).toContain("Total paid");
  });

  it("escapes everything people typed", () => {
    const hostile: DocumentModel = {
      ...RECEIPT,
      merchant: {
        name: 'Club <script>alert("x")</script>',
        address: ["<img src=x onerror=alert(1)>"],
        taxId: "1&2",
        logoUrl: "javascript:alert(1)",
      },
      customer: { name: "<b>Eve</b>", email: "eve'@example.com", language: "en" },
      lines: [
        {
          kind: "plan",
          planName: "</td><td>Gold",
          planChange: false,
          periodStart: RECEIPT.issuedAt,
          periodEnd: CREDIT_NOTE.issuedAt,
          amountMinor: 123_450,
        },
      ],
      tax: { label: "<i>VAT</i>", rateBp: 1_500, includedMinor: 16_102 },
    };
    const page = renderDocumentHtml(hostile, { language: "en" });
    expect(page).not.toMatch(/<script|<img|<b>|<i>|<\/td><td>Gold|javascript:/);
    expect(page).toContain("Club &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(page).toContain("1&amp;2");
    expect(page).toContain("eve&#39;@example.com");
    expect(page).toContain("&lt;/td&gt;&lt;td&gt;Gold");
    expect(page).toContain("&lt;i&gt;VAT&lt;/i&gt; 15% included");
  });

  it("shows a web or embedded logo, escaped", () => {
    const page = renderDocumentHtml(
      { ...RECEIPT, merchant: { ...MERCHANT, logoUrl: 'https://example.com/logo.png?a=1&b="2"' } },
      { language: "en" },
    );
    expect(page).toContain(
      '<img class="logo" src="https://example.com/logo.png?a=1&amp;b=&quot;2&quot;" alt="">',
    );
  });
});
