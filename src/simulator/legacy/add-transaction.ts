import type { CardTypeRestriction, Language } from "../checkout/checkout-session.js";
import { openCheckout } from "../checkout/open-checkout.js";
import type { SimulatorCore } from "../core.js";
import { resolveCurrency } from "../merchants/currency.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import { isEmail, parseAmount } from "../support/amount.js";
import type { SimReply } from "../types.js";
import { LegacyCode, legacyFailure, legacyOk } from "./codes.js";
import { type LegacyFields, legacyBoolean } from "./fields.js";

const CARD_TYPES: readonly CardTypeRestriction[] = ["credit", "debit", "both"];

/**
 * POST /v3/AddTransaction. Codes, in the order they are checked: -1 the merchant has card payments
 * off (profile incomplete); -10 orderId, amount or customerEmail not sent; -3 / -20 currency (see
 * resolveCurrency); -10 a malformed amount, e-mail, lang, isRecurring, autoSave, isVoid or cardType,
 * or isVoid without isRecurring or autoSave; -21 isVoid on a merchant without void support.
 */
export function addTransaction(
  core: SimulatorCore,
  merchant: MerchantAccount,
  fields: LegacyFields,
): SimReply {
  if (!merchant.card) return legacyFailure(LegacyCode.unauthorized);
  const orderId = fields.raw("orderId");
  const amountText = fields.get("amount");
  const email = fields.get("customerEmail");
  if (orderId === undefined || amountText === undefined || email === undefined) {
    return legacyFailure(LegacyCode.badRequest);
  }
  const resolved = resolveCurrency(merchant, fields.get("currencyCode"));
  if ("problem" in resolved) {
    return legacyFailure(
      resolved.problem === "invalid" ? LegacyCode.currencyNotSupported : LegacyCode.noCurrencyData,
    );
  }
  const amountMinor = parseAmount(amountText, resolved.currency);
  const language = (fields.get("lang") ?? "ar").toLowerCase();
  const recurring = legacyBoolean(fields.get("isRecurring"));
  const isVoid = legacyBoolean(fields.get("isVoid"));
  const autoSave = yesNo(fields.get("autoSave"));
  const cardType = (fields.get("cardType") ?? "both").toLowerCase() as CardTypeRestriction;
  if (
    amountMinor === undefined ||
    !isEmail(email) ||
    (language !== "en" && language !== "ar") ||
    recurring === undefined ||
    isVoid === undefined ||
    autoSave === undefined ||
    !CARD_TYPES.includes(cardType) ||
    (isVoid && !recurring && !autoSave)
  ) {
    return legacyFailure(LegacyCode.badRequest);
  }
  if (isVoid && !merchant.void) return legacyFailure(LegacyCode.voidNotSupported);

  const url = openCheckout(core, merchant, {
    operation: "AddTransaction",
    flow: { kind: "legacy", recurring, autoSave, isVoid, cardType },
    orderId,
    amountMinor,
    currency: resolved.currency,
    customer: {
      email,
      name: fields.raw("customerName") ?? null,
      phone: fields.raw("customerPhone") ?? null,
    },
    language: language as Language,
    note: fields.raw("note") ?? null,
    pushToken: fields.raw("PushToken") ?? null,
  });
  return legacyOk({ result: url });
}

/** autoSave is `yes` or `no` (any case); absent is no; anything else is undefined (invalid). */
function yesNo(value: string | undefined): boolean | undefined {
  if (value === undefined) return false;
  const lower = value.toLowerCase();
  if (lower === "yes") return true;
  if (lower === "no") return false;
  return undefined;
}
