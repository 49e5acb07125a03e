import PDFDocument from "pdfkit";
import { type DocumentContent, documentContent } from "./content.js";
import { type FontName, fontFiles } from "./fonts.js";
import type { DocumentLanguage, DocumentModel } from "./model.js";
import { ACCENT, type Box, FAINT, FULL, INK, MARGIN, MUTED, Page, RULE, style, WIDTH } from "./pdf-page.js";

/**
 * A document as a one-page A4 PDF, laid out from the reading side: English from the left, Arabic
 * (and bilingual, Arabic over English) from the right (pdf-page.ts; Arabic shaped and mixed lines
 * ordered by pdf-text.ts), its fonts embedded (fonts.ts). The same model gives the same bytes: the
 * file's dates and id come from the document's issue date, never from the clock.
 */

const DATA_IMAGE = /^data:image\/(png|jpeg);base64,/i;

function header(page: Page, c: DocumentContent, top: number): number {
  const merchantBox: Box = { from: 0, width: 280 };
  const titleBox: Box = { from: WIDTH - 210, width: 210 };
  let y = top;
  const logo = c.merchant.logoUrl;
  if (logo !== null && DATA_IMAGE.test(logo)) {
    page.doc.image(logo, page.dir === "ltr" ? MARGIN : MARGIN + WIDTH - 160, y, {
      fit: [160, 44],
      ...(page.dir === "rtl" ? { align: "right" as const } : {}),
    });
    y += 54;
  }
  y = page.text(c.merchant.name, merchantBox, y, style(15, INK, true));
  for (const line of c.merchant.address) y = page.text(line, merchantBox, y, style(9.5, MUTED));
  if (c.merchant.taxId)
    y = page.pair(c.merchant.taxId, merchantBox, y + 2, style(8.5, MUTED), style(9.5), "start");

  let right = page.stack(c.title, titleBox, top - 4, style(24, ACCENT, true), "end") + 4;
  for (const fact of c.facts)
    right = page.pair(fact, titleBox, right, style(8.5, MUTED), style(10, INK, true), "end");
  const bottom = Math.max(y, right) + 12;
  page.rule(bottom, FULL, ACCENT, 2);
  return bottom + 22;
}

function customer(page: Page, c: DocumentContent, top: number): number {
  const box: Box = { from: 0, width: 320 };
  let y = page.stack(c.customer.label, box, top, style(8.5, MUTED));
  if (c.customer.name) y = page.text(c.customer.name, box, y, style(10.5, INK, true));
  return page.text(c.customer.email, box, y, style(10.5)) + 22;
}

const AMOUNT_WIDTH = 150;
const DESCRIPTION: Box = { from: 0, width: WIDTH - AMOUNT_WIDTH - 20 };
const AMOUNT: Box = { from: WIDTH - AMOUNT_WIDTH, width: AMOUNT_WIDTH };

function lines(page: Page, c: DocumentContent, top: number): number {
  const head = style(8.5, MUTED);
  const headBottom = Math.max(
    page.stack(c.columns.description, DESCRIPTION, top, head),
    page.stack(c.columns.amount, AMOUNT, top, head, "numbers"),
  );
  page.rule(headBottom + 2, FULL, RULE, 0.8);
  let y = headBottom + 10;
  for (const row of c.rows) {
    const main = style(10.5);
    let left = page.stack(row.description, DESCRIPTION, y, main);
    if (row.detail) left = page.text(row.detail, DESCRIPTION, left, style(9, MUTED));
    const right = page.text(row.amount, AMOUNT, y, main, "numbers");
    y = Math.max(left, right) + 6;
    page.rule(y, FULL, FAINT, 0.8);
    y += 8;
  }
  return y;
}

function totals(page: Page, c: DocumentContent, top: number): number {
  const box: Box = { from: WIDTH - 300, width: 300 };
  const labelBox: Box = { from: box.from, width: box.width - AMOUNT_WIDTH };
  let y = top + 2;
  for (const [i, total] of c.totals.entries()) {
    const s = total.grand ? style(12.5, INK, true) : style(10);
    // A grand total under a subtotal and tax is ruled off from them; alone, the table's rule will do.
    if (total.grand && i > 0) {
      page.rule(y + 2, box, INK, 1.2);
      y += 10;
    }
    const left = page.stack(total.label, labelBox, y, s);
    const right = page.text(total.amount, AMOUNT, y, s, "numbers");
    y = Math.max(left, right) + 2;
  }
  return y + 26;
}

function sections(page: Page, c: DocumentContent, top: number): number {
  const gutter = 40;
  const width = (WIDTH - gutter) / 2;
  let bottom = top;
  c.sections.forEach((section, i) => {
    const box: Box = { from: i * (width + gutter), width };
    let y = page.stack(section.heading, box, top, style(9.5, ACCENT, true)) + 2;
    for (const field of section.fields) {
      const valueBox: Box = { from: box.from + width * 0.45, width: width * 0.55 };
      const left = page.stack(field.label, { from: box.from, width: width * 0.45 }, y, style(9, MUTED));
      const right = page.text(field.value, valueBox, y, style(9.5), "end");
      y = Math.max(left, right) + 1;
      page.rule(y, box, FAINT, 0.6);
      y += 5;
    }
    bottom = Math.max(bottom, y);
  });
  return bottom + 30;
}

function footer(page: Page, c: DocumentContent, top: number): void {
  page.rule(top, FULL, FAINT, 0.8);
  page.stack(c.note, FULL, top + 12, style(10, MUTED), "center");
}

const FONT_NAMES: FontName[] = ["latin", "latinBold", "arabic", "arabicBold"];

export function renderDocumentPdf(
  model: DocumentModel,
  options: { language: DocumentLanguage },
): Promise<Buffer> {
  const c = documentContent(model, options.language);
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    lang: c.lang,
    displayTitle: true,
    info: {
      Title: `${c.title.map((part) => part.text).join(" / ")} ${model.number}`,
      Author: model.merchant.name,
      Creator: "billing-engine",
      CreationDate: model.issuedAt,
      ModDate: model.issuedAt,
    },
  });
  const files = fontFiles();
  for (const name of FONT_NAMES) doc.registerFont(name, files[name]);
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const page = new Page(doc, c.dir);
  let y = header(page, c, MARGIN);
  y = customer(page, c, y);
  y = lines(page, c, y);
  y = totals(page, c, y);
  y = sections(page, c, y);
  footer(page, c, y);
  doc.end();
  return done;
}
