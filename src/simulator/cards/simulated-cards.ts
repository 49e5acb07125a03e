/**
 * Simulator-only card numbers whose behaviour is fixed, so an engine's tests can provoke declines on
 * later collections (GetnewPayment) without randomness. The real service has no test card numbers.
 */
export interface Decline {
  /** The response_code sent on v1 failure redirects and webhooks. */
  code: string;
  description: string;
}

/** What happens to the GetnewPayment calls made with the card's token, by their order (0, 1, 2, …). */
export type CollectionRule =
  | { kind: "approve_all" }
  | { kind: "decline_all"; decline: Decline }
  | { kind: "decline_first"; count: number; decline: Decline }
  | { kind: "approve_first"; count: number; decline: Decline };

export interface SimulatedCard {
  number: string;
  behaviour: string;
  type: "credit" | "debit";
  /** ISO country of the issuing bank; a "QA" debit card cannot pay recurring payments. */
  issuerCountry: string;
  /** Set when the checkout itself is declined. */
  checkoutDecline?: Decline;
  collections: CollectionRule;
  /** The automatic return of money of an isVoid payment fails with this description. */
  voidFailure?: string;
  /** The card is treated as expiring at the end of the month after the payment, whatever expiry was typed. */
  expiresNextMonth?: boolean;
}

export const DECLINES = {
  insufficientFunds: { code: "051", description: "Insufficient funds" },
  doNotHonour: { code: "005", description: "Do not honour" },
  invalidCard: { code: "014", description: "Invalid card number" },
  expiredCard: { code: "054", description: "Expired card" },
  cvv: { code: "082", description: "Invalid CVV" },
  qatarDebitRecurring: {
    code: "057",
    description: "A debit card issued in Qatar cannot pay a recurring payment",
  },
} as const satisfies Record<string, Decline>;

const approveAll: CollectionRule = { kind: "approve_all" };

export const SIMULATED_CARDS: readonly SimulatedCard[] = Object.freeze([
  {
    number: "4111111111111111",
    behaviour: "approves the checkout and every later collection",
    type: "credit",
    issuerCountry: "US",
    collections: approveAll,
  },
  {
    number: "5555555555554444",
    behaviour: "approves the checkout and every later collection (Mastercard)",
    type: "credit",
    issuerCountry: "GB",
    collections: approveAll,
  },
  {
    number: "4000000000000341",
    behaviour: "approves the checkout; every later collection is declined (Insufficient funds)",
    type: "credit",
    issuerCountry: "US",
    collections: { kind: "decline_all", decline: DECLINES.insufficientFunds },
  },
  {
    number: "4000000000000002",
    behaviour:
      "approves the checkout; the first two collections are declined (Do not honour), later ones approved",
    type: "credit",
    issuerCountry: "US",
    collections: { kind: "decline_first", count: 2, decline: DECLINES.doNotHonour },
  },
  {
    number: "4000000000000077",
    behaviour:
      "approves the checkout and two collections, then declines every collection (Insufficient funds)",
    type: "credit",
    issuerCountry: "US",
    collections: { kind: "approve_first", count: 2, decline: DECLINES.insufficientFunds },
  },
  {
    number: "4000000000009995",
    behaviour: "the checkout is declined (Insufficient funds)",
    type: "credit",
    issuerCountry: "US",
    checkoutDecline: DECLINES.insufficientFunds,
    collections: approveAll,
  },
  {
    number: "4847000000000009",
    behaviour:
      "a debit card issued in Qatar: pays one-time checkouts, fails recurring, autosave, isVoid and save_token checkouts",
    type: "debit",
    issuerCountry: "QA",
    collections: approveAll,
  },
  {
    number: "4000056655665556",
    behaviour: "a debit card issued abroad: approves everything (for cardType=debit checkouts)",
    type: "debit",
    issuerCountry: "US",
    collections: approveAll,
  },
  {
    number: "4000000000000259",
    behaviour: "approves the payment but the automatic return of an isVoid payment fails (refunded=no)",
    type: "credit",
    issuerCountry: "US",
    collections: approveAll,
    voidFailure: "Void declined by the issuer",
  },
  {
    number: "4000000000000069",
    behaviour: "approves; the card (and so its token) expires at the end of the month after the payment",
    type: "credit",
    issuerCountry: "US",
    collections: approveAll,
    expiresNextMonth: true,
  },
]);

const BY_NUMBER = new Map(SIMULATED_CARDS.map((card) => [card.number, card]));

/** Any other number that passes the Luhn check behaves like 4111 1111 1111 1111. */
export function simulatedCard(number: string): SimulatedCard | undefined {
  const known = BY_NUMBER.get(number);
  if (known) return known;
  if (!passesLuhn(number)) return undefined;
  return { ...SIMULATED_CARDS[0]!, number, behaviour: "unknown card number that passes Luhn" };
}

function passesLuhn(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = number.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Whether collection number `attempt` (0-based) on a token of this card is declined, and how. */
export function collectionDecline(card: SimulatedCard, attempt: number): Decline | null {
  const rule = card.collections;
  switch (rule.kind) {
    case "approve_all":
      return null;
    case "decline_all":
      return rule.decline;
    case "decline_first":
      return attempt < rule.count ? rule.decline : null;
    case "approve_first":
      return attempt < rule.count ? null : rule.decline;
  }
}
