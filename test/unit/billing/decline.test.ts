import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyDecline, explainDecline } from "../../../src/billing/index.js";

describe("classifyDecline / explainDecline", () => {
  it.each([
    // hard: the issuer will not approve this card
    ["Expired card", "hard_decline", "expired_card"],
    ["Card has expired", "hard_decline", "expired_card"],
    ["INVALID EXPIRY DATE", "hard_decline", "expired_card"],
    ["Stolen card, pick up", "hard_decline", "lost_or_stolen"],
    ["Lost card", "hard_decline", "lost_or_stolen"],
    ["Pick-up card", "hard_decline", "pick_up_card"],
    ["Invalid card number", "hard_decline", "invalid_account"],
    ["No such issuer", "hard_decline", "invalid_account"],
    ["Account closed", "hard_decline", "invalid_account"],
    ["Suspected fraud", "hard_decline", "fraud"],
    ["Transaction not permitted to cardholder", "hard_decline", "not_permitted"],
    ["Recurring payments not allowed for this card", "hard_decline", "not_permitted"],
    ["Stop payment order", "hard_decline", "stop_payment"],
    ["Revocation of authorisation", "hard_decline", "stop_payment"],
    ["Card token expired", "hard_decline", "token_invalid"],
    // retryable: may succeed later
    ["Insufficient funds", "retryable_decline", "insufficient_funds"],
    ["NOT SUFFICIENT FUNDS", "retryable_decline", "insufficient_funds"],
    ["Exceeds withdrawal amount limit", "retryable_decline", "limit_exceeded"],
    ["Issuer unavailable", "retryable_decline", "issuer_unavailable"],
    ["System error, please try again", "retryable_decline", "issuer_unavailable"],
    ["Request timed out", "retryable_decline", "issuer_unavailable"],
    // a generic decline (Visa: may be approved later); the dunning policy bounds the retries
    ["Do not honour", "retryable_decline", "do_not_honour"],
    ["do not honor", "retryable_decline", "do_not_honour"],
    ["Don't honour", "retryable_decline", "do_not_honour"],
    // hard wins when both appear
    ["Insufficient funds; card expired", "hard_decline", "expired_card"],
    ["Do not honour: card reported lost", "hard_decline", "lost_or_stolen"],
    // a specific soft cause gives the reason over the generic one
    ["Do not honour (insufficient funds)", "retryable_decline", "insufficient_funds"],
    // ISO 8583 codes alone
    ["05", "retryable_decline", "do_not_honour"],
    ["54", "hard_decline", "expired_card"],
    ["51", "retryable_decline", "insufficient_funds"],
    ["91", "retryable_decline", "issuer_unavailable"],
    [51, "retryable_decline", "insufficient_funds"],
    [5, "retryable_decline", "do_not_honour"],
    ["r1", "hard_decline", "stop_payment"],
    // unknown text is retryable: the policy bounds the retries
    ["Transaction declined", "retryable_decline", "unrecognised"],
    ["Lost connection to bank", "retryable_decline", "unrecognised"],
    ["Session expired", "retryable_decline", "unrecognised"],
    ["", "retryable_decline", "unrecognised"],
    [null, "retryable_decline", "unrecognised"],
    [undefined, "retryable_decline", "unrecognised"],
  ] as const)("%j → %s (%s)", (input, kind, reason) => {
    expect(explainDecline(input)).toEqual({ kind, reason });
    expect(classifyDecline(input)).toBe(kind);
  });

  it("does not depend on letter case", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          "insufficient funds",
          "expired card",
          "do not honour",
          "stolen",
          "issuer unavailable",
        ),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }),
        (text, upper) => {
          const mixed = [...text]
            .map((char, i) => (upper[i % upper.length] ? char.toUpperCase() : char))
            .join("");
          expect(explainDecline(mixed)).toEqual(explainDecline(text));
          expect(explainDecline(mixed).reason).not.toBe("unrecognised");
        },
      ),
    );
  });

  it("always answers one of the two kinds", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(["retryable_decline", "hard_decline"]).toContain(classifyDecline(text));
      }),
    );
  });
});
