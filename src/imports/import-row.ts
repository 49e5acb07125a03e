import { DateTime } from "luxon";
import { z } from "zod";
import { COLLECTION_METHODS, parseCardExpiry } from "../billing/index.js";
import { IMPORT_COLUMNS } from "./columns.js";
import { type CsvFile, CsvFileError, readCsvFile } from "./csv.js";

/**
 * One row of a subscription import (`billing import --csv`): a customer moving to us from another
 * billing system with a card token the gateway already issued, and when the subscription bills
 * next. Validated here, before anything is written; an error names the line and the column.
 *
 * | column          | required | meaning                                                              |
 * |-----------------|----------|----------------------------------------------------------------------|
 * | email           | yes      | the customer (an existing customer with that e-mail is reused)        |
 * | name            | no       | the customer's name                                                  |
 * | plan            | yes      | a plan id, or a plan's exact name                                     |
 * | card_token      | yes      | the gateway's token (sealed on the way in; never written in clear)    |
 * | token_kind      | no       | recurring (default) or autosave                                       |
 * | card_expiry     | no       | MM/YY as the card shows it                                            |
 * | card_last4      | no       | four digits                                                          |
 * | token_issued_at | no       | ISO 8601; default now (the token lives six months or to card expiry) |
 * | next_billing_at | no       | ISO 8601: the first charge here, and the billing anchor; default now |
 * | collection_method | no     | charge_automatically (the card) or send_payment_link; default the plan's |
 */

const blankAsUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUndefined, schema.optional());
const instant = z
  .string()
  .refine((text) => DateTime.fromISO(text, { setZone: true }).isValid, "expected ISO 8601");

export const importRowSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[^@\s]+@[^@\s]+$/, "expected an e-mail address"),
  name: optional(z.string().trim().max(200)),
  plan: z.string().trim().min(1, "required"),
  card_token: z
    .string()
    .trim()
    .min(8, "expected a gateway card token")
    .max(512)
    .regex(/^[^\s,]+$/, "expected a gateway card token"),
  token_kind: optional(z.enum(["recurring", "autosave"])),
  card_expiry: optional(
    z.string().refine((text) => {
      try {
        parseCardExpiry(text);
        return true;
      } catch {
        return false;
      }
    }, "expected MM/YY"),
  ),
  card_last4: optional(z.string().regex(/^\d{4}$/, "expected four digits")),
  token_issued_at: optional(instant),
  next_billing_at: optional(instant),
  collection_method: optional(
    z.enum(COLLECTION_METHODS, { error: `expected one of ${COLLECTION_METHODS.join(", ")}` }),
  ),
});

export type ImportRow = z.output<typeof importRowSchema>;

export interface ReadRow {
  /** Line of the file the row ends on (the header is line 1). */
  readonly line: number;
  readonly row: ImportRow | null;
  /** Why the row cannot be imported: `column: reason`, or why it cannot be read at all. */
  readonly error: string | null;
}

export class ImportFileError extends Error {
  override name = "ImportFileError";
}

/** Parses and validates every row; a file that is not a CSV with the required columns is refused whole. */
export function readImportCsv(text: string): ReadRow[] {
  let file: CsvFile;
  try {
    file = readCsvFile(text);
  } catch (error) {
    if (error instanceof CsvFileError) throw new ImportFileError(error.message);
    throw error;
  }
  const { header, records } = file;
  const missing = (["email", "plan", "card_token"] as const).filter((column) => !header.includes(column));
  if (missing.length > 0)
    throw new ImportFileError(`no ${missing.join(", ")} column; columns: ${IMPORT_COLUMNS.join(",")}`);

  const seen = new Map<string, number>();
  return records.map(({ record, line, error }) => {
    if (error) return { line, row: null, error };
    const parsed = importRowSchema.safeParse(record);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { line: line, row: null, error: `${issue.path.join(".")}: ${issue.message}` };
    }
    const first = seen.get(parsed.data.card_token);
    if (first !== undefined) {
      return { line: line, row: null, error: `card_token: the same token as line ${first}` };
    }
    seen.set(parsed.data.card_token, line);
    return { line: line, row: parsed.data, error: null };
  });
}
