import type { DateTime } from "luxon";
import { type Money, toDecimalString } from "../money/index.js";
import type { InvoiceRequestWire } from "./schemas/invoice.js";
import type { InvoiceDiscount, InvoiceRequest, InvoiceSettingInput } from "./types/invoice.js";

/**
 * Turns a typed invoice request into the gateway's snake_case body. Amounts become exact decimal
 * strings; the invoice currency is the one currency all its Money values share. Bad input throws a
 * RangeError, which the client reports as a rejected request without calling the gateway.
 */
export function invoiceToWire(input: InvoiceRequest): InvoiceRequestWire {
  const currency = invoiceCurrency(input);
  const decimal = (value: Money) => toDecimalString(value.minor, value.currency);
  return {
    description: input.description,
    amount: input.amount && decimal(input.amount),
    items: input.items?.map((item) => ({
      product_id: item.productId,
      description: item.description,
      qty: item.qty === undefined ? undefined : quantityText(item.qty),
      amount: decimal(item.amount),
    })),
    date: input.date === undefined ? undefined : instantText(input.date),
    status: input.status,
    number: input.number,
    currency,
    client: input.client,
    note: input.note,
    type: input.type,
    terms_conditions: input.termsConditions,
    payments: input.payments?.map((payment) => ({
      payment_date: instantText(payment.paymentDate),
      transaction_id: payment.transactionId,
      amount: decimal(payment.amount),
      note: payment.note,
      payment_type: payment.paymentType,
      status: payment.status,
    })),
    setting: input.setting && settingToWire(input.setting),
    title: input.title,
  };
}

function invoiceCurrency(input: InvoiceRequest): string {
  const amounts: Money[] = [
    ...(input.amount ? [input.amount] : []),
    ...(input.items ?? []).map((item) => item.amount),
    ...(input.payments ?? []).map((payment) => payment.amount),
    ...(input.setting?.discount?.type === "fixed" ? [input.setting.discount.amount] : []),
  ];
  const currencies = new Set(amounts.map((value) => value.currency));
  const [currency] = currencies;
  if (currencies.size > 1) {
    throw new RangeError(`an invoice has one currency, got ${[...currencies].join(", ")}`);
  }
  if (currency === undefined) throw new RangeError("an invoice needs an amount or items");
  return currency;
}

function settingToWire(setting: InvoiceSettingInput): NonNullable<InvoiceRequestWire["setting"]> {
  const methods = setting.acceptedPaymentMethods;
  return {
    tax: setting.tax,
    ...discountToWire(setting.discount),
    language: setting.language,
    accepted_payment_methods: methods && {
      card: methods.card,
      bank_transfer: methods.bankTransfer,
      cash: methods.cash,
      wallet: methods.wallet,
      e_signature: methods.eSignature,
    },
  };
}

function discountToWire(discount: InvoiceDiscount | undefined) {
  if (discount === undefined) return {};
  if (discount.type === "fixed") {
    return {
      discount: toDecimalString(discount.amount.minor, discount.amount.currency),
      discount_type: "fixed" as const,
    };
  }
  if (!(discount.percent >= 1 && discount.percent <= 99)) {
    throw new RangeError(`a percentage discount is between 1 and 99, got ${discount.percent}`);
  }
  return { discount: quantityText(discount.percent), discount_type: "percentage" as const };
}

/** Quantities and percentages are plain decimals, not money; exponent notation is refused. */
function quantityText(value: number | string): string {
  const text = typeof value === "number" ? String(value) : value.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) throw new RangeError(`${JSON.stringify(value)} is not a plain decimal`);
  return text;
}

function instantText(value: string | DateTime): string {
  if (typeof value === "string") return value;
  const text = value.toISO();
  if (text === null) throw new RangeError(`invalid date: ${value.invalidExplanation ?? "unparsable"}`);
  return text;
}
