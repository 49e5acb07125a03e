import type { DateTime } from "luxon";
import { type DunningPolicy, nextRetry, type TerminalAction } from "./dunning.js";

/**
 * Collection by payment link: the rules that do not depend on the gateway. Pure.
 *
 * A charge of a `send_payment_link` subscription is not retried on a card: its link goes out when
 * the charge is due, and the dunning policy's schedule sends it again instead of retrying
 * (reminder k at retryOffsetsDays[k - 1] days after the link went out, while attempts remain).
 * After the last reminder the customer has `graceDays` more to pay; then the policy's terminal
 * action is taken, exactly as when card retries run out.
 */
export const COLLECTION_METHODS = ["charge_automatically", "send_payment_link"] as const;
export type CollectionMethod = (typeof COLLECTION_METHODS)[number];

export type LinkStep =
  | { readonly kind: "remind"; readonly number: number; readonly at: DateTime }
  | { readonly kind: "end"; readonly action: TerminalAction; readonly at: DateTime };

/** What follows once `remindersSent` reminders of a link sent at `sentAt` have gone out. */
export function nextLinkStep(
  policy: DunningPolicy,
  link: { readonly sentAt: DateTime; readonly remindersSent: number },
  graceDays: number,
): LinkStep {
  const { sentAt, remindersSent } = link;
  if (!Number.isSafeInteger(remindersSent) || remindersSent < 0) {
    throw new RangeError(`remindersSent must be a non-negative whole number, got ${remindersSent}`);
  }
  const next = nextRetry(policy, { firstFailedAt: sentAt, attemptsMade: 1 + remindersSent });
  if (next.kind === "retry") return { kind: "remind", number: remindersSent + 1, at: next.at };
  const lastOffset = remindersSent === 0 ? 0 : policy.retryOffsetsDays[remindersSent - 1]!;
  return { kind: "end", action: next.action, at: sentAt.toUTC().plus({ days: lastOffset + graceDays }) };
}
