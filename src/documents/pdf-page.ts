import type { Field, Stack, Text } from "./content.js";
import { type ShapedLine, shapeLine, type TextStyle, wrapText } from "./pdf-text.js";

/**
 * Drawing on a PDF page from the side the document reads from: a box is measured from that side
 * (its start), so one layout serves English from the left and Arabic from the right. Lines are
 * shaped by pdf-text.ts and drawn on a shared baseline; text wider than its box wraps.
 */

/** A4 is 595.28 points wide; the margin runs all round. */
const PAGE_WIDTH = 595.28;
export const MARGIN = 50;
export const WIDTH = PAGE_WIDTH - 2 * MARGIN;
export const INK = "#1d2430";
export const MUTED = "#5b6676";
export const ACCENT = "#1f4e79";
export const RULE = "#cfd6df";
export const FAINT = "#e6eaef";

/** Sides of the reading direction, or "numbers": always the right, where the decimals line up. */
type Align = "start" | "end" | "center" | "numbers";

interface Style extends TextStyle {
  color: string;
}

export const style = (size: number, color = INK, bold = false): Style => ({ size, color, bold });
/** The English under an Arabic label: smaller and quieter than the main text (a title, much smaller). */
const subOf = (main: Style): Style => ({
  size: main.size > 16 ? main.size * 0.6 : Math.max(7.5, main.size * 0.82),
  color: MUTED,
  bold: false,
});
const lineHeight = (s: Style) => s.size * 1.5;
const baselineOffset = (s: Style) => s.size * 1.1;
/** A bilingual label on one line, where stacking does not fit (the header's small print). */
const inline = (label: Stack): Text => ({
  text: label.map((part) => part.text).join(" / "),
  dir: label[0]?.dir ?? "auto",
});

/** A horizontal band of the page, measured from the side the document starts on. */
export interface Box {
  from: number;
  width: number;
}

export class Page {
  constructor(
    readonly doc: PDFKit.PDFDocument,
    readonly dir: "ltr" | "rtl",
  ) {}

  /** The page x of a span of `width` placed `align` inside the box. */
  private x(box: Box, width: number, align: Align): number {
    const left = this.dir === "ltr" ? MARGIN + box.from : MARGIN + WIDTH - box.from - box.width;
    if (align === "center") return left + (box.width - width) / 2;
    const atLeft = align !== "numbers" && (align === "start") === (this.dir === "ltr");
    return atLeft ? left : left + box.width - width;
  }

  shape(value: Text, s: Style): ShapedLine {
    return shapeLine(this.doc, value.text, value.dir, s);
  }

  draw(line: ShapedLine, box: Box, top: number, s: Style, align: Align): void {
    let x = this.x(box, line.width, align);
    for (const piece of line.pieces) {
      this.doc
        .font(piece.font)
        .fontSize(s.size)
        .fillColor(s.color)
        .text(piece.text, x, top + baselineOffset(s), {
          lineBreak: false,
          baseline: "alphabetic",
          features: [],
        });
      x += piece.width;
    }
  }

  /** A text wrapped to the box; returns the y under it. */
  text(value: Text, box: Box, top: number, s: Style, align: Align = "start"): number {
    let y = top;
    for (const line of wrapText(this.doc, value.text, value.dir, s, box.width)) {
      this.draw(line, box, y, s, align);
      y += lineHeight(s);
    }
    return y;
  }

  /** A label: its main text, and under it the English of a bilingual one. */
  stack(label: Stack, box: Box, top: number, s: Style, align: Align = "start"): number {
    return label.reduce((y, part, i) => this.text(part, box, y, i === 0 ? s : subOf(s), align), top);
  }

  /** Label then value on one line, read in the document's direction, the pair placed `align`. */
  pair(field: Field, box: Box, top: number, label: Style, value: Style, align: Align): number {
    const gap = 8;
    const l = this.shape(inline(field.label), label);
    const v = this.shape(field.value, value);
    const total = l.width + gap + v.width;
    const startOfPair = align === "end" ? box.from + box.width - total : box.from;
    // The two sizes share one baseline.
    this.draw(
      l,
      { from: startOfPair, width: l.width },
      top + baselineOffset(value) - baselineOffset(label),
      label,
      "start",
    );
    this.draw(v, { from: startOfPair + l.width + gap, width: v.width }, top, value, "start");
    return top + lineHeight(value);
  }

  rule(top: number, box: Box, color: string, thickness: number): void {
    const left = this.x(box, box.width, "start");
    this.doc
      .moveTo(left, top)
      .lineTo(left + box.width, top)
      .lineWidth(thickness)
      .strokeColor(color)
      .stroke();
  }
}

export const FULL: Box = { from: 0, width: WIDTH };
