/** The fields of the hosted checkout form, as the page posts them and /_sim/pay takes them. */
export interface CardInput {
  card_number?: unknown;
  expiry?: unknown;
  cvv?: unknown;
  name?: unknown;
}

export interface EnteredCard {
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
  name: string;
}

/** A field the page refuses before any payment is attempted (the client can correct it and retry). */
export type FormProblem = "card_number" | "expiry" | "cvv" | "name" | "credit_only" | "debit_only";

/**
 * Checks the form's shape only: digits, MM/YY, a CVV and a name. Whether the card pays (Luhn, expiry
 * date, CVV value) is decided by processing, which records a FAILURE payment.
 */
export function readCardInput(input: CardInput): { card: EnteredCard } | { problem: FormProblem } {
  const number = text(input.card_number).replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(number)) return { problem: "card_number" };
  const expiry = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(text(input.expiry));
  if (!expiry) return { problem: "expiry" };
  const cvv = text(input.cvv);
  if (cvv === "") return { problem: "cvv" };
  const name = text(input.name);
  if (name === "") return { problem: "name" };
  return { card: { number, expiryMonth: Number(expiry[1]), expiryYear: Number(expiry[2]), cvv, name } };
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}
