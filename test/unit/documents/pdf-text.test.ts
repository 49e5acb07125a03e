import { describe, expect, it } from "vitest";
import type { FontName } from "../../../src/documents/fonts.js";
import { type Measure, shapeLine, wrapText } from "../../../src/documents/pdf-text.js";

/** Every character one point wide in every font: enough to see order, fonts and wrapping. */
const measure: Measure = {
  font: (_name: FontName) => measure,
  fontSize: () => measure,
  widthOfString: (text) => [...text].length,
};

const regular = { size: 10, bold: false };
const drawn = (text: string, dir: "ltr" | "rtl" | "auto") =>
  shapeLine(measure, text, dir, regular).pieces.map((p) => [p.text, p.font]);

describe("shapeLine", () => {
  it("leaves a left-to-right line as it is", () => {
    expect(drawn("Total paid 1,234.50 QAR", "ltr")).toEqual([["Total paid 1,234.50 QAR", "latin"]]);
  });

  it("hands an Arabic run to the font in logical order (fontkit shapes and turns it)", () => {
    expect(drawn("إجمالي المدفوع", "rtl")).toEqual([["إجمالي المدفوع", "arabic"]]);
  });

  it("puts the runs of a mixed line in visual order, numbers kept left to right", () => {
    // خصم 10%: the number follows the Arabic word, so it is drawn to its left; % keeps to its end.
    expect(drawn("خصم 10%", "rtl")).toEqual([
      ["%", "latin"],
      ["10", "latin"],
      ["خصم ", "arabic"],
    ]);
    expect(drawn("الضريبة المشمولة VAT 15%", "rtl")).toEqual([
      ["VAT 15%", "latin"],
      ["الضريبة المشمولة ", "arabic"],
    ]);
  });

  it("keeps an amount whole inside an Arabic line when it is its own left-to-right text", () => {
    expect(drawn("1,234.50 QAR", "ltr")).toEqual([["1,234.50 QAR", "latin"]]);
    expect(drawn("1,234.50", "rtl")).toEqual([["1,234.50", "latin"]]);
  });

  it("mirrors brackets in right-to-left runs", () => {
    expect(drawn("نادي (الرياضي)", "rtl")).toEqual([["نادي )الرياضي(", "arabic"]]);
  });

  it("turns a right-to-left run of punctuation alone itself, mirrored", () => {
    // Between two numbers in a right-to-left line the marks are right to left and hold no Arabic.
    expect(drawn("1 ?!( 2", "rtl")).toEqual([
      ["2", "latin"],
      [" )!? ", "latin"],
      ["1", "latin"],
    ]);
  });

  it("orders an Arabic date range", () => {
    expect(drawn("5 يناير 2025 – 5 فبراير 2025", "rtl").map(([text]) => text)).toEqual([
      "2025",
      " فبراير ",
      "5",
      " – ",
      "2025",
      " يناير ",
      "5",
    ]);
  });

  it("reads a typed name's direction from its first strong letter", () => {
    expect(drawn("فاطمة آل ثاني", "auto")).toEqual([["فاطمة آل ثاني", "arabic"]]);
    expect(drawn("Fatima (Doha)", "auto")).toEqual([["Fatima (Doha)", "latin"]]);
  });

  it("uses the bold faces for bold text, and measures the whole line", () => {
    const line = shapeLine(measure, "خصم 10%", "rtl", { size: 10, bold: true });
    expect(line.pieces.map((p) => p.font)).toEqual(["latinBold", "latinBold", "arabicBold"]);
    expect(line.width).toBe(7);
  });
});

describe("wrapText", () => {
  it("cuts at spaces to the width, and cuts a word too long for any line", () => {
    const lines = wrapText(measure, "Gold membership with pool access", "ltr", regular, 16);
    expect(lines.map((l) => l.pieces.map((p) => p.text).join(""))).toEqual([
      "Gold membership",
      "with pool access",
    ]);
    const long = wrapText(measure, "fatima@example-domain.qa", "ltr", regular, 10);
    expect(long.map((l) => l.pieces.map((p) => p.text).join(""))).toEqual([
      "fatima@exa",
      "mple-domai",
      "n.qa",
    ]);
  });
});
