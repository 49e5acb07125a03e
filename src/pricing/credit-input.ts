import { z } from "zod";
import { decimalAmountText, storableText } from "../billing/index.js";

/**
 * The body of "grant credit" (snake_case, as the API receives it): the amount as a decimal string
 * in the plan's currency (`amount`, converted exactly once the plan is known) or in minor units
 * (`amount_minor`), exactly one of them; and why, which the event log keeps as the audit. Every
 * problem is reported at once, each naming its field.
 */
export const REASON_MAX = 300;

export const creditGrantBody = z
  .strictObject(
    {
      amount: decimalAmountText("amount")
        .optional()
        .describe('Credit in the plan\'s currency as a decimal string, e.g. "10.00"; or send amount_minor'),
      amount_minor: z
        .number({ error: "amount_minor must be a number" })
        .int({ error: "amount_minor must be a whole number of minor units" })
        .positive({ error: "amount_minor must be greater than zero" })
        .optional()
        .describe("Credit in minor units of the plan's currency (fils for QAR); or send amount"),
      reason: z
        .string({ error: "reason must be a string" })
        .trim()
        .min(1, { error: "reason must not be empty" })
        .max(REASON_MAX, { error: `reason must be at most ${REASON_MAX} characters` })
        .check(storableText("reason"))
        .describe("Why the customer is given credit; kept in the event log"),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
    },
  )
  .superRefine((body, ctx) => {
    const given = [body.amount, body.amount_minor].filter((value) => value !== undefined).length;
    if (given !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message:
          given === 0
            ? "amount (a decimal string) or amount_minor is required"
            : "give either amount or amount_minor, not both",
      });
    }
  });

export type CreditGrantBody = z.output<typeof creditGrantBody>;

export class CreditInputError extends Error {
  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(`invalid credit: ${issues.map((issue) => issue.message).join("; ")}`);
    this.name = "CreditInputError";
  }
}

/** Validates a grant's body; throws CreditInputError listing every problem by field. */
export function parseCreditGrant(input: unknown): CreditGrantBody {
  const result = creditGrantBody.safeParse(input);
  if (result.success) return result.data;
  throw new CreditInputError(
    result.error.issues.map((issue) => ({ field: issue.path.join(".") || "body", message: issue.message })),
  );
}
