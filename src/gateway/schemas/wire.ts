import { z } from "zod";

/** Building blocks of request schemas: what the client may put on the wire. */

/** A decimal with a dot and no sign, as the client formats Money. */
export const nonNegativeDecimal = z.string().regex(/^\d+(\.\d+)?$/, "expected a decimal such as 10.50");

export const positiveDecimal = nonNegativeDecimal.refine(
  (text) => /[1-9]/.test(text),
  "amount must be greater than zero",
);

/** Any characters, but not only blanks (the gateway checks that the value is present). */
export const present = z.string().refine((text) => text.trim() !== "", "must not be empty");

export const currencyCode = z.string().regex(/^[A-Z]{3}$/, "expected an ISO 4217 alpha code");

/** The spec's 300-character limit on free texts. */
export const text300 = z.string().max(300);

export const language = z.enum(["en", "ar"]);
