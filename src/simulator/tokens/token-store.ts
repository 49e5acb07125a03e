import { toDecimalString } from "../../money/index.js";
import type { SimulatedCard } from "../cards/simulated-cards.js";
import type { Customer } from "../payments/payment.js";
import { endOfExpiryMonth, endOfNextMonth, isoOf, plusMonths } from "../support/time.js";

/**
 * recurring: from isRecurring; bound to the enrollment amount and currency.
 * autosave: from autoSave=yes or v1 save_token; each collection names its own orderId and amount.
 */
export type TokenKind = "recurring" | "autosave";
export type TokenStatus = "active" | "expired" | "deactivated";

export interface CardToken {
  token: string;
  merchantId: number;
  kind: TokenKind;
  /** The amount a recurring token charges; null for autosave tokens. */
  amountMinor: number | null;
  currency: string;
  card: SimulatedCard;
  cardLast4: string;
  customer: Customer;
  sourceTransactionId: string;
  issuedAt: number;
  /** The first instant the token no longer works: six months after issue or the card's expiry, earlier wins. */
  expiresAt: number;
  deactivatedAt: number | null;
  /** GetnewPayment calls made with it so far; simulated cards decide by this count. */
  collections: number;
}

const TOKEN_LIFETIME_MONTHS = 6;

/** The first instant a token issued now no longer works: six months on, or the card's expiry, earlier wins. */
export function tokenExpiresAt(
  issuedAt: number,
  card: SimulatedCard,
  expiry: { readonly month: number; readonly twoDigitYear: number },
): number {
  const cardExpiry = card.expiresNextMonth
    ? endOfNextMonth(issuedAt)
    : endOfExpiryMonth(expiry.month, expiry.twoDigitYear);
  return Math.min(plusMonths(issuedAt, TOKEN_LIFETIME_MONTHS), cardExpiry);
}

export function tokenStatus(token: CardToken, now: number): TokenStatus {
  if (token.deactivatedAt !== null) return "deactivated";
  return now >= token.expiresAt ? "expired" : "active";
}

/** Card tokens by value. A token is only ever visible to the merchant it was issued to. */
export class TokenStore {
  private readonly tokens = new Map<string, CardToken>();

  add(token: CardToken): void {
    this.tokens.set(token.token, token);
  }

  find(merchantId: number, value: string): CardToken | undefined {
    const token = this.tokens.get(value);
    return token?.merchantId === merchantId ? token : undefined;
  }

  all(): IterableIterator<CardToken> {
    return this.tokens.values();
  }

  clear(): void {
    this.tokens.clear();
  }
}

export function tokenLedgerView(token: CardToken, now: number) {
  return {
    card_token: token.token,
    merchant_id: token.merchantId,
    kind: token.kind,
    amount: token.amountMinor === null ? null : toDecimalString(token.amountMinor, token.currency),
    currency: token.currency,
    card_last4: token.cardLast4,
    source_transaction_id: token.sourceTransactionId,
    issued_at: isoOf(token.issuedAt),
    expires_at: isoOf(token.expiresAt),
    deactivated_at: token.deactivatedAt === null ? null : isoOf(token.deactivatedAt),
    status: tokenStatus(token, now),
    collections: token.collections,
  };
}
