import { IANAZone } from "luxon";
import { z } from "zod";
import { MESSAGE_KINDS } from "../billing/index.js";
import { CustomerInputError, customerInputSchema } from "./customer-input.js";
import { CUSTOMER_LANGUAGES } from "./languages.js";

/**
 * The body of "update a customer": only the fields given change. Name and phone are checked as on
 * creation (null clears them); time_zone must be an IANA zone, stored as the zone database spells it
 * (null: back to the billing time zone); message_opt_outs is the whole list of the message kinds the
 * customer does not want (empty: every kind). Unknown fields are refused, as on creation. The
 * e-mail is how a customer is found (unique), so it is not changed here.
 */

/** "asia/qatar" → "Asia/Qatar": the spelling every later reader of the zone expects. */
const canonicalZone = (zone: string) =>
  new Intl.DateTimeFormat("en", { timeZone: zone }).resolvedOptions().timeZone;

const KINDS_ERROR = `message_opt_outs must list message kinds: ${MESSAGE_KINDS.join(", ")}`;

export const customerUpdateSchema = z.strictObject(
  {
    name: customerInputSchema.shape.name,
    phone: customerInputSchema.shape.phone,
    language: z
      .enum(CUSTOMER_LANGUAGES, { error: `language must be one of ${CUSTOMER_LANGUAGES.join(", ")}` })
      .optional(),
    time_zone: z
      .string({ error: "time_zone must be a string or null" })
      .refine((zone) => IANAZone.isValidZone(zone), {
        error: "time_zone must be an IANA time zone, e.g. Asia/Qatar",
      })
      .transform(canonicalZone)
      .nullish(),
    message_opt_outs: z
      .array(z.enum(MESSAGE_KINDS, { error: KINDS_ERROR }), { error: KINDS_ERROR })
      .transform((kinds) => [...new Set(kinds)])
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
  },
);

export type CustomerUpdate = z.output<typeof customerUpdateSchema>;

/** Validates an update body; throws CustomerInputError listing every problem by field. */
export function parseCustomerUpdate(input: unknown): CustomerUpdate {
  const result = customerUpdateSchema.safeParse(input);
  if (result.success) return result.data;
  throw new CustomerInputError(
    result.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })),
  );
}
