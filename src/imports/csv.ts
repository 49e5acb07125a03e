import { parse } from "csv-parse/sync";

/**
 * A CSV file with a header row, as the bulk commands read it: column names trimmed and lower-cased,
 * cells trimmed, empty lines skipped, a byte-order mark ignored, short rows allowed (a missing cell is undefined).
 * Each record carries the line it ends on (the header is line 1), for error messages.
 */
export interface CsvFile {
  readonly header: readonly string[];
  readonly records: readonly { readonly line: number; readonly record: Record<string, string | undefined> }[];
}

export class CsvFileError extends Error {
  override name = "CsvFileError";
}

export function readCsvFile(text: string): CsvFile {
  let header: string[] = [];
  try {
    const parsed: { record: Record<string, string | undefined>; info: { lines: number } }[] = parse(text, {
      columns: (names: string[]) => {
        header = names.map((name) => name.trim().toLowerCase());
        return header;
      },
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      bom: true,
    });
    return { header, records: parsed.map(({ record, info }) => ({ line: info.lines, record })) };
  } catch (error) {
    throw new CsvFileError(`not a readable CSV: ${(error as Error).message}`);
  }
}
