import { DateTime, Duration } from "luxon";

/**
 * A saved card token and its lifetime. Per the gateway, a token stops working six months after it
 * was issued or when the card expires, whichever comes first, or when the merchant deactivates it.
 * Knowing the expiry in advance lets the engine warn the customer and ask for a new card instead of
 * discovering it through a failed charge.
 */

export const TOKEN_LIFETIME = Duration.fromObject({ months: 6 });
/** The "payment method expiring" notice goes out this long before the token stops working. */
export const EXPIRY_NOTICE_WINDOW = Duration.fromObject({ days: 14 });

export class CardExpiryFormatError extends RangeError {
  constructor(readonly input: string) {
    super(`card expiry ${JSON.stringify(input)} must be MM/YY with a month from 01 to 12, e.g. "09/27"`);
    this.name = "CardExpiryFormatError";
  }
}

const CARD_EXPIRY = /^(0[1-9]|1[0-2])\/(\d{2})$/;

/**
 * Parses "MM/YY" strictly (no spaces, two-digit month and year). YY is 20YY: cards are issued for
 * a few years ahead, so no card in use expires in the 1900s.
 */
export function parseCardExpiry(input: string): { year: number; month: number } {
  const match = CARD_EXPIRY.exec(input);
  if (!match) throw new CardExpiryFormatError(input);
  return { year: 2000 + Number(match[2]), month: Number(match[1]) };
}

/**
 * When a token stops working: six months after issue, or the last instant (UTC) of the card's
 * expiry month, whichever is first. Cards are valid through their whole expiry month.
 */
export function tokenExpiry(issuedAt: DateTime, cardExpiry?: string | null): DateTime {
  if (!issuedAt.isValid)
    throw new RangeError(`issuedAt is an invalid DateTime: ${issuedAt.invalidExplanation}`);
  const lifetimeEnd = issuedAt.toUTC().plus(TOKEN_LIFETIME);
  if (cardExpiry === undefined || cardExpiry === null) return lifetimeEnd;
  const { year, month } = parseCardExpiry(cardExpiry);
  const cardEnd = DateTime.utc(year, month).endOf("month");
  return DateTime.min(cardEnd, lifetimeEnd);
}

export type TokenStatus = "active" | "expired" | "deactivated" | "unusable";

export interface TokenLifecycle {
  readonly issuedAt: DateTime;
  readonly expiresAt: DateTime;
  /** The merchant deactivated the token (gateway deactivate / StopRecurring). */
  readonly deactivatedAt: DateTime | null;
  /** The gateway refused the token (e.g. "no recurring or autosave payment exists", code -7). */
  readonly unusableAt: DateTime | null;
}

const reached = (at: DateTime | null, now: DateTime): boolean => at !== null && at <= now;

/**
 * The token's state at `now`. When several apply, the most specific cause wins (a deliberate
 * deactivation, then a gateway refusal, then plain expiry) so the customer is told the real reason.
 */
export function tokenStatus(pm: TokenLifecycle, now: DateTime): TokenStatus {
  if (reached(pm.deactivatedAt, now)) return "deactivated";
  if (reached(pm.unusableAt, now)) return "unusable";
  if (reached(pm.expiresAt, now)) return "expired";
  return "active";
}

export function isChargeable(pm: TokenLifecycle, now: DateTime): boolean {
  return tokenStatus(pm, now) === "active";
}

/** True while the token still works but stops working within the window (inclusive). */
export function expiringSoon(
  pm: TokenLifecycle,
  now: DateTime,
  window: Duration = EXPIRY_NOTICE_WINDOW,
): boolean {
  return isChargeable(pm, now) && pm.expiresAt <= now.plus(window);
}
