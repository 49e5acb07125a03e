import { z } from "zod";
import { storableText } from "../billing/index.js";
import { CUSTOMER_LANGUAGES } from "./languages.js";

/** Separators people type inside phone numbers; the gateway wants the bare +<digits> form. */
const PHONE_SEPARATORS = /[\s().-]/g;
/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * The body of "create a customer". The e-mail is trimmed and lower-cased before it is checked,
 * because the customers table only holds it in that form (and finds duplicates through it).
 * Unknown fields are refused so that a misspelt optional field cannot silently go missing.
 */
export const customerInputSchema = z.strictObject(
  {
    email: z
      .string({ error: "email must be a string" })
      .trim()
      .toLowerCase()
      .pipe(
        z
          .email({ error: "email must be a valid e-mail address" })
          .max(254, { error: "email must be at most 254 characters" }),
      ),
    name: z
      .string({ error: "name must be a string or null" })
      .trim()
      .min(1, { error: "name must not be empty" })
      // The gateway's limit for a client name.
      .max(300, { error: "name must be at most 300 characters" })
      .check(storableText("name"))
      .nullish(),
    phone: z
      .string({ error: "phone must be a string or null" })
      .transform((phone) => phone.replace(PHONE_SEPARATORS, ""))
      .pipe(z.string().regex(E164, { error: "phone must include the country code, e.g. +97455555555" }))
      .nullish(),
    language: z
      .enum(CUSTOMER_LANGUAGES, { error: `language must be one of ${CUSTOMER_LANGUAGES.join(", ")}` })
      .default("en"),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
  },
);

export type CustomerInput = z.output<typeof customerInputSchema>;

export class CustomerInputError extends Error {
  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(`invalid customer: ${issues.map((issue) => issue.message).join("; ")}`);
    this.name = "CustomerInputError";
  }
}

/** Validates a create-customer body; throws CustomerInputError listing every problem by field. */
export function parseCustomerInput(input: unknown): CustomerInput {
  const result = customerInputSchema.safeParse(input);
  if (result.success) return result.data;
  throw new CustomerInputError(
    result.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })),
  );
}

/** The stored form of an e-mail (trimmed, lower case), or null when it is not an e-mail at all. */
export function normaliseEmail(email: string): string | null {
  const parsed = customerInputSchema.shape.email.safeParse(email);
  return parsed.success ? parsed.data : null;
}
