import { z } from "zod";
import { type Money, toMinor } from "../../money/index.js";

/**
 * The single place where the gateway's inconsistencies are smoothed over: key casing, the several
 * spellings of transaction ids, `result` being a URL or a number or a numeric string, decimals that
 * arrive as numbers or strings, booleans as text. Reply schemas build only on these helpers.
 */

/** Alternative key names (already lower-cased) folded into the one the schemas read. */
const KEY_ALIASES: Readonly<Record<string, string>> = {
  transid: "transactionid",
  // The spec's legacy Refund reply spells it so; the correct spelling is accepted as well.
  refundtrnsactionid: "refundtransactionid",
};

/**
 * Lower-cases every key, deeply, and folds aliases, so `transactionId`, `transactionID`,
 * `transactionid` and `transId` are read as one key. The first non-null value wins a collision.
 */
export function normaliseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normaliseKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const lower = key.toLowerCase();
    const name = KEY_ALIASES[lower] ?? lower;
    if (out[name] === undefined || out[name] === null) out[name] = normaliseKeys(inner);
  }
  return out;
}

export type LegacyResult = { kind: "code"; code: number } | { kind: "url"; url: string };

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === "https:" || protocol === "http:";
}

/** `result`: an integer, a numeric string ("1", "-7"), or a checkout URL on AddTransaction success. */
export const legacyResult = z.union([z.number(), z.string()]).transform((value, ctx): LegacyResult => {
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return { kind: "code", code: value };
  } else {
    const text = value.trim();
    if (/^[+-]?\d{1,9}$/.test(text)) return { kind: "code", code: Number(text) };
    if (isHttpUrl(text)) return { kind: "url", url: text };
  }
  ctx.addIssue({ code: "custom", message: `result ${JSON.stringify(value)} is neither a code nor a URL` });
  return z.NEVER;
});

/** Text that is absent when null or empty; numbers become their text (ids sometimes arrive as numbers). */
export const optionalText = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => {
    if (value === null || value === undefined) return undefined;
    const text = String(value).trim();
    return text === "" ? undefined : text;
  });

/** Required text (ids, dates) that the gateway may send as a string or a number. */
export const requiredText = z.union([z.string().trim().min(1), z.number().int()]).transform(String);

/** An integer that may arrive as a numeric string. */
export const intLike = z.union([
  z.number().int(),
  z
    .string()
    .trim()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

/**
 * A decimal as exact text: strings are kept as sent; numbers become their shortest round-trip text,
 * which is the sent decimal for any amount within double precision (trailing zeros aside).
 */
export const decimalText = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const text = typeof value === "number" ? String(value) : value.trim();
  if (/^-?\d+(\.\d+)?$/.test(text)) return text;
  ctx.addIssue({ code: "custom", message: `${JSON.stringify(value)} is not a decimal` });
  return z.NEVER;
});

/** A boolean that may arrive as true/false text in any casing. */
export const boolLike = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(["true", "false"]))
    .transform((text) => text === "true"),
]);

/** A mode in any casing (Live, TEST, live), normalised to lower case. */
export const gatewayMode = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["live", "test"]));

/**
 * Converts a reply's decimal to exact minor units. A value that is not exact in the currency adds a
 * zod issue naming the field instead of throwing; the parse then fails as one unreadable reply, so
 * the zero returned alongside never reaches a caller.
 */
export function moneyOrIssue(ctx: z.RefinementCtx, field: string, amount: string, currency: string): Money {
  try {
    return { minor: toMinor(amount, currency, { allowNegative: true }), currency };
  } catch (error) {
    ctx.addIssue({ code: "custom", path: [field], message: (error as Error).message });
    return { minor: 0, currency };
  }
}

/** The amount in minor units when it is exact in the currency, otherwise undefined. */
export function exactMoney(amount: string, currency: string): Money | undefined {
  try {
    return { minor: toMinor(amount, currency, { allowNegative: true }), currency };
  } catch {
    return undefined;
  }
}

/** Drops keys whose value is undefined, so optional output fields are absent rather than undefined. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as T;
}
