import { DateTime } from "luxon";
import { z } from "zod";
import { findRetryLimitViolation } from "./retry-limits.js";

/**
 * Dunning: what happens after a charge is declined. The policy is configuration (per merchant or
 * plan), validated once when it is saved so that the worker can follow it blindly.
 */

export const TERMINAL_ACTIONS = ["unpaid", "cancel"] as const;
export type TerminalAction = (typeof TERMINAL_ACTIONS)[number];

export interface DunningPolicy {
  /** Days after the FIRST failed attempt at which to retry, strictly increasing. */
  readonly retryOffsetsDays: readonly number[];
  /** All attempts of one charge on one card, the first one included. */
  readonly maxAttempts: number;
  /** Where the subscription goes when collection fails for good. */
  readonly terminalAction: TerminalAction;
}

export const DEFAULT_RETRY_OFFSETS_DAYS: readonly number[] = Object.freeze([1, 3, 5, 7]);

export const DEFAULT_DUNNING_POLICY: DunningPolicy = Object.freeze({
  retryOffsetsDays: DEFAULT_RETRY_OFFSETS_DAYS,
  maxAttempts: 1 + DEFAULT_RETRY_OFFSETS_DAYS.length,
  terminalAction: "unpaid",
});

/** A retry a year after the failure is a new sale, not dunning; this also keeps dates in range. */
export const MAX_RETRY_OFFSET_DAYS = 365;

const DAY_MS = 86_400_000;

export const dunningPolicySchema = z
  .strictObject(
    {
      retryOffsetsDays: z
        .array(
          z
            .number({ error: "retryOffsetsDays must contain numbers of days" })
            .int({ error: "retryOffsetsDays must contain whole numbers of days" })
            .min(0, { error: "retryOffsetsDays must not be negative" })
            .max(MAX_RETRY_OFFSET_DAYS, {
              error: `retryOffsetsDays must be at most ${MAX_RETRY_OFFSET_DAYS} days`,
            }),
          { error: "retryOffsetsDays must be an array of days" },
        )
        .default(() => [...DEFAULT_RETRY_OFFSETS_DAYS]),
      maxAttempts: z
        .number({ error: "maxAttempts must be a number" })
        .int({ error: "maxAttempts must be a whole number" })
        .min(1, { error: "maxAttempts must be at least 1 (the first attempt)" })
        .optional(),
      terminalAction: z
        .enum(TERMINAL_ACTIONS, { error: `terminalAction must be one of ${TERMINAL_ACTIONS.join(", ")}` })
        .default("unpaid"),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
    },
  )
  .transform((input, ctx): DunningPolicy => {
    const offsets = input.retryOffsetsDays;
    for (let i = 1; i < offsets.length; i += 1) {
      if (offsets[i]! <= offsets[i - 1]!) {
        ctx.addIssue({
          code: "custom",
          path: ["retryOffsetsDays", i],
          message: `retryOffsetsDays must be strictly increasing: day ${offsets[i]} follows day ${offsets[i - 1]}`,
        });
        return z.NEVER;
      }
    }
    const maxAttempts = input.maxAttempts ?? 1 + offsets.length;
    if (maxAttempts > 1 + offsets.length) {
      ctx.addIssue({
        code: "custom",
        path: ["maxAttempts"],
        message: `maxAttempts ${maxAttempts} needs ${maxAttempts - 1} retry offsets, but retryOffsetsDays has ${offsets.length}`,
      });
      return z.NEVER;
    }
    // Only the attempts that will actually be made count against the networks' limits.
    const schedule = [0, ...offsets.slice(0, maxAttempts - 1)].map((days) => days * DAY_MS);
    const violation = findRetryLimitViolation(schedule);
    if (violation) {
      ctx.addIssue({
        code: "custom",
        path: ["retryOffsetsDays"],
        message: `retry schedule refused: ${violation.message}`,
      });
      return z.NEVER;
    }
    return { retryOffsetsDays: offsets, maxAttempts, terminalAction: input.terminalAction };
  });

export class DunningPolicyError extends Error {
  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(`invalid dunning policy: ${issues.map((issue) => issue.message).join("; ")}`);
    this.name = "DunningPolicyError";
  }
}

/** Validates a policy (an empty object gives the defaults); throws DunningPolicyError explaining why. */
export function parseDunningPolicy(input: unknown = {}): DunningPolicy {
  const result = dunningPolicySchema.safeParse(input);
  if (result.success) return result.data;
  throw new DunningPolicyError(
    result.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })),
  );
}

export interface DunningProgress {
  /** When the first attempt of this charge on this card failed. */
  readonly firstFailedAt: DateTime;
  /** Attempts made so far, the failed ones included (1 after the first failure). */
  readonly attemptsMade: number;
  /**
   * When the last attempt was made, if it ran later than planned (a worker outage). The next retry
   * then keeps its planned distance from it, so a late schedule is shifted rather than squeezed:
   * gaps never shrink, and the network limits checked on the plan still hold.
   */
  readonly lastAttemptAt?: DateTime;
}

export type RetryDecision =
  | { readonly kind: "retry"; readonly at: DateTime }
  | { readonly kind: "exhausted"; readonly action: TerminalAction };

/**
 * The next step after a failed attempt. Retry k (k = 1, 2, ...) is due `retryOffsetsDays[k - 1]`
 * days after the first failure; days are 24-hour UTC days because the network limits are measured
 * in elapsed time, not on a calendar.
 */
export function nextRetry(policy: DunningPolicy, progress: DunningProgress): RetryDecision {
  const { firstFailedAt, attemptsMade, lastAttemptAt } = progress;
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 1) {
    throw new RangeError(`attemptsMade must be at least 1 once an attempt failed, got ${attemptsMade}`);
  }
  const offset = policy.retryOffsetsDays[attemptsMade - 1];
  if (attemptsMade >= policy.maxAttempts || offset === undefined) {
    return { kind: "exhausted", action: policy.terminalAction };
  }
  const planned = firstFailedAt.toUTC().plus({ days: offset });
  if (!lastAttemptAt) return { kind: "retry", at: planned };
  const previousOffset = attemptsMade >= 2 ? policy.retryOffsetsDays[attemptsMade - 2]! : 0;
  const shifted = lastAttemptAt.toUTC().plus({ days: offset - previousOffset });
  return { kind: "retry", at: DateTime.max(shifted, planned) };
}
