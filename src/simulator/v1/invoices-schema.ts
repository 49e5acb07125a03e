import { z } from "zod";
import { decimalPlaces, decimalText, parseDecimal } from "./invoices-decimal.js";
import { dateTimeField, decimalField, parsedField } from "./invoices-validation.js";

/**
 * The POST /v1/invoices body as the spec's "Invoice (v1, request fields)" tables describe it.
 * Field-level rules live here; rules that span fields or need the merchant (quick vs detailed,
 * payments vs status, currency and payment-method support, money decimals) are in invoices.ts.
 * Unknown fields are ignored, as JSON APIs usually do.
 */

/** The spec's one length limit for free text. */
export const MAX_TEXT = 300;

export const INVOICE_STATUSES = ["sent", "paid", "void", "refund"] as const;
export const PAYMENT_STATUSES = ["paid", "active", "refund"] as const;
/** The spec lists "e.g. credit, cash, wallet"; bank_transfer matches the accepted payment methods. */
export const PAYMENT_TYPES = ["credit", "cash", "wallet", "bank_transfer"] as const;
/** Quantities beyond this precision are almost certainly a float leaking onto the wire. */
const MAX_QTY_PLACES = 6;

const nonBlank = (value: string) => value.trim() !== "";
const text = () => z.string().max(MAX_TEXT);
/** Required text: an empty or blank string counts as not sent. */
const requiredText = () => text().refine(nonBlank, "must not be empty");

/** "Id of a product in the store": a string of digits in requests; an integer is accepted too. */
const productIdField = () =>
  parsedField((value) => {
    if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? value : undefined;
    if (typeof value !== "string" || !/^\d+$/.test(value.trim())) return undefined;
    const id = Number(value.trim());
    return Number.isSafeInteger(id) && id > 0 ? id : undefined;
  }, "must be a product id (a positive integer, usually sent as a string)");

const quantityField = () =>
  parsedField((value) => {
    const found = decimalText(value);
    if (found === undefined) return undefined;
    const qty = parseDecimal(found);
    return qty.units > 0n && decimalPlaces(qty) <= MAX_QTY_PLACES ? found : undefined;
  }, `must be a positive decimal number with at most ${MAX_QTY_PLACES} decimal places`);

const clientSchema = z.object({
  id: z.int({ error: "must be a positive integer" }).positive("must be a positive integer").optional(),
  name: text().optional(),
  email: z.email({ error: (issue) => (issue.input === undefined ? "is required" : "invalid e-mail format") }),
  phone: z.string().optional(),
  address: text().optional(),
});

const itemSchema = z.object({
  product_id: productIdField().optional(),
  description: requiredText(),
  qty: quantityField().default("1"),
  amount: decimalField(),
});

const paymentSchema = z.object({
  payment_date: dateTimeField(),
  transaction_id: z.string().optional(),
  amount: decimalField(),
  note: text().optional(),
  payment_type: z.enum(PAYMENT_TYPES).default("cash"),
  status: z.enum(PAYMENT_STATUSES).default("paid"),
});

const methodsSchema = z.object({
  // Left out, card follows the account's card support; the others are off unless asked for.
  card: z.boolean().optional(),
  bank_transfer: z.boolean().default(false),
  cash: z.boolean().default(false),
  wallet: z.boolean().default(false),
  e_signature: z.boolean().default(false),
});

const settingSchema = z.object({
  tax: z.boolean().default(false),
  discount: decimalField().default("0"),
  discount_type: z.enum(["percentage", "fixed"]).default("fixed"),
  language: z.enum(["ar", "en"]).default("ar"),
  accepted_payment_methods: methodsSchema.prefault({}),
});

export const invoiceRequestSchema = z.object({
  description: requiredText().optional(),
  amount: decimalField().optional(),
  items: z.array(itemSchema).optional(),
  date: dateTimeField().optional(),
  status: z.enum(INVOICE_STATUSES).default("sent"),
  number: z.string().refine(nonBlank, "must not be empty").optional(),
  currency: z.string().optional(),
  client: clientSchema.optional(),
  note: text().optional(),
  type: z.literal("detailed", { error: 'the only accepted value is "detailed"' }).optional(),
  terms_conditions: text().optional(),
  payments: z.array(paymentSchema).optional(),
  setting: settingSchema.prefault({}),
  title: text().optional(),
});

export type InvoiceRequest = z.output<typeof invoiceRequestSchema>;
export type ItemRequest = z.output<typeof itemSchema>;
export type PaymentRequest = z.output<typeof paymentSchema>;
export type SettingRequest = z.output<typeof settingSchema>;
export type ClientRequest = z.output<typeof clientSchema>;

/**
 * The spec's override: with amount and description present, items are ignored, so they are not
 * validated either (a quick invoice must not fail over items nobody will read).
 */
export function withoutIgnoredItems(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const fields = body as Record<string, unknown>;
  if (fields.amount === undefined || fields.description === undefined || !("items" in fields)) return body;
  const { items: _ignored, ...rest } = fields;
  return rest;
}
