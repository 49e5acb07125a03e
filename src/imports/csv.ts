import { parse } from "csv-parse/sync";

/**
 * A CSV file with a header row, as the bulk commands read it: column names trimmed and lower-cased,
 * cells trimmed, empty lines skipped, a byte-order mark ignored, short rows allowed (a missing cell is undefined).
 * Each record carries the line it ends on (the header is line 1), for error messages.
 *
 * Rule: a row with more cells than the header is not read by position (its cells would land in
 * the wrong columns, typically after an unquoted comma in a name); it carries `error` instead, so
 * the command rejects that row by its line and goes on with the others.
 */
export interface CsvRecord {
  readonly line: number;
  readonly record: Record<string, string | undefined>;
  /** Why the row cannot be read as the header says; undefined when it can. */
  readonly error?: string;
}

export interface CsvFile {
  readonly header: readonly string[];
  readonly records: readonly CsvRecord[];
}

export class CsvFileError extends Error {
  override name = "CsvFileError";
}

export function readCsvFile(text: string): CsvFile {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    // Cells by position; the header is applied below, where a row longer than it is noticed. The
    // typings do not model `info` without `columns`, hence the cast.
    parsed = parse(text, {
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      bom: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    throw new CsvFileError(`not a readable CSV: ${(error as Error).message}`);
  }
  const [first, ...rows] = parsed;
  const header = (first?.record ?? []).map((name) => name.trim().toLowerCase());
  const records = rows.map(({ record: cells, info }): CsvRecord => {
    const record = Object.fromEntries(header.map((name, i) => [name, cells[i]]));
    if (cells.length <= header.length) return { line: info.lines, record };
    return {
      line: info.lines,
      record,
      error: `${cells.length} columns where the header has ${header.length} (put a value holding a comma in double quotes)`,
    };
  });
  return { header, records };
}
