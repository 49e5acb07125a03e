/**
 * Is a declined charge worth retrying on the same card? A hard decline means the issuer will not
 * approve this card whatever we do (card networks forbid or penalise retrying those); a retryable
 * decline may succeed later (funds arrive, limits reset, the issuer comes back online).
 *
 * The gateway's GetnewPayment failure (`result: 0`) carries only a free-text `description`, so
 * matching is on case-insensitive keywords; an ISO 8583 response code ("51", "05") is matched
 * exactly when that is all the input holds. Anything unrecognised is retryable: the dunning policy
 * caps the number of retries, while a wrong hard decline would lose a paying customer.
 */

export type DeclineKind = "retryable_decline" | "hard_decline";

export type DeclineReason =
  | "token_invalid"
  | "expired_card"
  | "lost_or_stolen"
  | "pick_up_card"
  | "invalid_account"
  | "fraud"
  | "not_permitted"
  | "stop_payment"
  | "insufficient_funds"
  | "limit_exceeded"
  | "issuer_unavailable"
  | "do_not_honour"
  | "unrecognised";

export interface DeclineRule {
  readonly reason: DeclineReason;
  readonly kind: DeclineKind;
  readonly keywords: RegExp;
  readonly codes: readonly string[];
}

/** Checked in order, so a text naming both a hard and a soft cause is hard. */
export const DECLINE_RULES: readonly DeclineRule[] = [
  // The token itself is gone; a new card must be saved.
  {
    reason: "token_invalid",
    kind: "hard_decline",
    keywords: /\btoken\b.*\b(expired|invalid|deactivated|not found)\b/i,
    codes: [],
  },
  {
    reason: "expired_card",
    kind: "hard_decline",
    keywords: /\bexpired\s+card\b|\bcard\s+(has\s+)?expired\b|\bexpir(y|ation)\s+date\b/i,
    codes: ["54"],
  },
  {
    reason: "lost_or_stolen",
    kind: "hard_decline",
    keywords: /\bstolen\b|\blost\s+card\b|\bcard\s+(reported\s+)?lost\b/i,
    codes: ["41", "43"],
  },
  { reason: "pick_up_card", kind: "hard_decline", keywords: /\bpick[\s-]?up\b/i, codes: ["04", "07"] },
  {
    reason: "invalid_account",
    kind: "hard_decline",
    keywords:
      /\binvalid\s+(card|account)\b|\bno\s+such\s+(card|issuer|account)\b|\b(account|card)\s+closed\b|\bclosed\s+account\b/i,
    codes: ["14", "15", "46"],
  },
  { reason: "fraud", kind: "hard_decline", keywords: /\bfraud/i, codes: [] },
  // Includes a card that cannot pay recurring charges (e.g. Qatari debit cards, per the gateway).
  {
    reason: "not_permitted",
    kind: "hard_decline",
    keywords: /\bnot\s+(permitted|allowed|supported)\b/i,
    codes: ["57"],
  },
  {
    reason: "stop_payment",
    kind: "hard_decline",
    keywords: /\bstop\s+payment\b|\brevo(ked|cation)\b/i,
    codes: ["R0", "R1", "R3"],
  },
  {
    reason: "insufficient_funds",
    kind: "retryable_decline",
    keywords: /\binsufficient\b|\bnot\s+sufficient\b|\bnsf\b/i,
    codes: ["51"],
  },
  {
    reason: "limit_exceeded",
    kind: "retryable_decline",
    keywords: /\blimit\b|\bexceeds?\b/i,
    codes: ["61", "65"],
  },
  {
    reason: "issuer_unavailable",
    kind: "retryable_decline",
    keywords: /\bunavailable\b|\btry\s+again\b|\btime(d)?\s*out\b|\bsystem\s+(error|malfunction)\b/i,
    codes: ["91", "96"],
  },
  // Retryable, not hard: Visa lists 05 as a generic decline in its "could be approved later"
  // category, where reattempts are allowed within the network's retry limits (which the dunning
  // policy already enforces), and issuers use it for temporary conditions. It comes last so a more
  // specific cause named in the same text gives the reason.
  {
    reason: "do_not_honour",
    kind: "retryable_decline",
    keywords: /\bdo\s*n[o']?t\s+hono(u)?r\b/i,
    codes: ["05"],
  },
];

export interface DeclineClassification {
  readonly kind: DeclineKind;
  readonly reason: DeclineReason;
}

/** The kind and the reason (for events and customer messages) of a gateway decline. */
export function explainDecline(codeOrDescription: string | number | null | undefined): DeclineClassification {
  const text =
    typeof codeOrDescription === "number"
      ? String(codeOrDescription).padStart(2, "0")
      : (codeOrDescription ?? "").trim();
  const byCode = DECLINE_RULES.find((rule) => rule.codes.includes(text.toUpperCase()));
  const rule = byCode ?? DECLINE_RULES.find((candidate) => candidate.keywords.test(text));
  return rule
    ? { kind: rule.kind, reason: rule.reason }
    : { kind: "retryable_decline", reason: "unrecognised" };
}

export function classifyDecline(codeOrDescription: string | number | null | undefined): DeclineKind {
  return explainDecline(codeOrDescription).kind;
}
