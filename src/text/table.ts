/**
 * Text for a person at a terminal: rows as aligned columns, one record as `key  value` lines. A
 * missing value shows as "-", an object as its JSON. The CLI's human output and the demo's summary
 * are made of it.
 */

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Rows as aligned columns, for human output of lists. */
export function table<T extends object>(rows: readonly T[], columns: readonly (keyof T & string)[]): string {
  if (rows.length === 0) return "(none)";
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...cells.map((line) => line[index]?.length ?? 0)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(columns), ...cells.map(line)].join("\n");
}

/** An object as `key: value` lines, for human output of one record. */
export function fields(record: object): string {
  const entries = Object.entries(record);
  const width = Math.max(...entries.map(([key]) => key.length));
  return entries.map(([key, value]) => `${key.padEnd(width)}  ${cell(value)}`).join("\n");
}
