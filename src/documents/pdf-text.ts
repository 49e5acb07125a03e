import bidiModule from "bidi-js";
import type { FontName } from "./fonts.js";

/**
 * One line of text in a PDF, in the order a reader sees it. pdfkit draws what it is given from
 * left to right, and its fontkit shapes Arabic (joined letter forms) but turns a run around only as
 * a whole and only when it holds Arabic letters. So a line is cut into the runs of the Unicode
 * bidirectional algorithm (bidi-js): each run of one embedding level, in one font, the runs put in
 * visual order (rule L2), and then:
 * - a right-to-left run with Arabic goes to fontkit in logical order: it shapes and turns it;
 * - a right-to-left run of punctuation and spaces alone is turned here;
 * - a left-to-right run (Latin words, amounts such as 1,234.50, ids) goes as it is;
 * - mirrored characters (brackets) in right-to-left runs are swapped first (rule L4).
 * Each run is laid out whole (`features: []` makes pdfkit shape the run at once instead of word by
 * word, which would keep Arabic words in left-to-right order).
 */

// bidi-js is CommonJS whose types declare an ES default export: at run time the default import is
// the factory itself.
const bidi = (bidiModule as unknown as typeof bidiModule.default)();

export interface TextStyle {
  size: number;
  bold: boolean;
}

export interface Piece {
  text: string;
  font: FontName;
  width: number;
}

export interface ShapedLine {
  pieces: Piece[];
  width: number;
}

/** What pdfkit offers that shaping needs: choosing a font and measuring with it. */
export interface Measure {
  font(name: FontName): Measure;
  fontSize(size: number): Measure;
  widthOfString(text: string, options: { features: [] }): number;
}

const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;

interface Run {
  /** Logical order, mirrored where right to left. */
  text: string;
  level: number;
}

function logicalRuns(text: string, dir: "ltr" | "rtl" | "auto"): Run[] {
  const { levels } = bidi.getEmbeddingLevels(text, dir);
  const runs: Run[] = [];
  for (let i = 0; i < text.length; i++) {
    const level = levels[i] ?? 0;
    const char = text[i] ?? "";
    const shown = level % 2 === 1 ? (bidi.getMirroredCharacter(char) ?? char) : char;
    const last = runs[runs.length - 1];
    if (last && last.level === level) last.text += shown;
    else runs.push({ text: shown, level });
  }
  return runs;
}

/** Rule L2: from the highest level down to the lowest odd one, reverse every stretch at or above it. */
function visualOrder(runs: Run[]): Run[] {
  const ordered = [...runs];
  const levels = ordered.map((run) => run.level);
  const highest = Math.max(0, ...levels);
  const lowestOdd = Math.min(...levels.filter((level) => level % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level--) {
    let i = 0;
    while (i < ordered.length) {
      if ((ordered[i]?.level ?? 0) < level) {
        i++;
        continue;
      }
      let end = i;
      while (end < ordered.length && (ordered[end]?.level ?? 0) >= level) end++;
      ordered.splice(i, end - i, ...ordered.slice(i, end).reverse());
      i = end;
    }
  }
  return ordered;
}

function piece(run: Run, style: TextStyle): Omit<Piece, "width"> {
  const arabic = ARABIC.test(run.text);
  const font: FontName = arabic ? (style.bold ? "arabicBold" : "arabic") : style.bold ? "latinBold" : "latin";
  const turnHere = run.level % 2 === 1 && !arabic;
  return { text: turnHere ? [...run.text].reverse().join("") : run.text, font };
}

export function shapeLine(
  doc: Measure,
  text: string,
  dir: "ltr" | "rtl" | "auto",
  style: TextStyle,
): ShapedLine {
  const pieces = visualOrder(logicalRuns(text, dir)).map((run) => {
    const drawn = piece(run, style);
    return {
      ...drawn,
      width: doc.font(drawn.font).fontSize(style.size).widthOfString(drawn.text, { features: [] }),
    };
  });
  return { pieces, width: pieces.reduce((sum, p) => sum + p.width, 0) };
}

/**
 * The text cut into lines no wider than `maxWidth`, at spaces, each line shaped on its own; a word
 * wider than a line on its own (a long id or e-mail) is cut where it must.
 */
export function wrapText(
  doc: Measure,
  text: string,
  dir: "ltr" | "rtl" | "auto",
  style: TextStyle,
  maxWidth: number,
): ShapedLine[] {
  const fits = (candidate: string) => shapeLine(doc, candidate, dir, style).width <= maxWidth;
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    const joined = current === "" ? word : `${current} ${word}`;
    if (fits(joined)) {
      current = joined;
      continue;
    }
    if (current !== "") lines.push(current);
    current = word;
    while (!fits(current) && current.length > 1) {
      let cut = current.length - 1;
      while (cut > 1 && !fits(current.slice(0, cut))) cut--;
      lines.push(current.slice(0, cut));
      current = current.slice(cut);
    }
  }
  if (current !== "") lines.push(current);
  return lines.map((line) => shapeLine(doc, line, dir, style));
}
