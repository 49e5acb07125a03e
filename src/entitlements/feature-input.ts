import { z } from "zod";
import { FEATURE_KINDS, storableText } from "../billing/index.js";

/**
 * Rule: a feature's code is what the merchant's application asks about, so it is taken exactly as
 * sent, never normalised: 1-64 of a-z, 0-9, `_`, `.` and `-`, starting with a letter or a digit (the
 * features table's check). A limit is a whole number from 0 up, or null for unlimited. Every
 * message names its field.
 */

export const FEATURE_CODE = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
const CODE_RULE = "1-64 of a-z, 0-9, _, . and -, starting with a letter or a digit";

export const featureCode = z
  .string({ error: "code must be a string" })
  .regex(FEATURE_CODE, { error: `code must be ${CODE_RULE}` });

export const createFeatureBody = z.strictObject({
  code: featureCode.describe(`What your application asks about: ${CODE_RULE}; never changes`),
  name: z
    .string({ error: "name must be a string" })
    .trim()
    .min(1, { error: "name must not be empty" })
    .max(200, { error: "name must be at most 200 characters" })
    .check(storableText("name"))
    .describe("What it is, for people"),
  kind: z
    .enum(FEATURE_KINDS, { error: `kind must be one of ${FEATURE_KINDS.join(", ")}` })
    .describe("boolean: a switch; limit: a number (e.g. 10 projects) or unlimited"),
});

export type CreateFeatureInput = z.output<typeof createFeatureBody>;

const LIMIT_RULE = "limit must be a whole number from 0 up, or null for unlimited";

/** `{ "limit": n | null }` for a limit feature, `{}` (or no body) for a switch. */
export const planFeatureBody = z
  .strictObject({
    limit: z
      .number({ error: LIMIT_RULE })
      .int({ error: LIMIT_RULE }) // a safe integer: the bigint column holds it exactly
      .min(0, { error: LIMIT_RULE })
      .nullable()
      .optional()
      .describe("Limit features only: the plan's limit, or null for unlimited; leave it out for a switch"),
  })
  .nullish();

export type PlanFeatureInput = z.output<typeof planFeatureBody>;
