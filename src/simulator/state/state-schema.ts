import { DateTime } from "luxon";
import { z } from "zod";
import { DELAYABLE_OPERATIONS } from "../faults/fault-registry.js";
import type { Decimal } from "../v1/invoices-decimal.js";
import { INVOICE_STATUSES, PAYMENT_STATUSES, PAYMENT_TYPES } from "../v1/invoices-schema.js";

/**
 * The state file's shape (version 1), as zod codecs: decoding a file gives the stores' own values
 * (luxon DateTimes, BigInt decimals) and encoding them gives plain JSON, so the two directions cannot
 * drift apart. Objects the stores share (a checkout's payment, a payment's refund, an invoice's
 * client, a token's card) are saved by id and linked again on load.
 */

const int = z.number().int();
const count = int.min(0);
const id = int.min(1);
const instant = int; // epoch milliseconds on the simulator clock
const text = z.string();
const nullableText = text.nullable();

const dateTime = z.codec(text, z.custom<DateTime>(DateTime.isDateTime), {
  decode: (value, ctx) => {
    const parsed = DateTime.fromISO(value, { setZone: true });
    if (parsed.isValid) return parsed;
    ctx.issues.push({ code: "custom", input: value, message: "not an ISO 8601 timestamp" });
    return z.NEVER;
  },
  encode: (value) => value.toISO() ?? "",
});

const decimal = z.codec(
  z.object({ units: text.regex(/^\d+$/, "expected digits"), scale: count }),
  z.custom<Decimal>((value) => typeof (value as Decimal | null)?.units === "bigint"),
  {
    decode: (value) => ({ units: BigInt(value.units), scale: value.scale }),
    encode: (value) => ({ units: value.units.toString(), scale: value.scale }),
  },
);

const merchant = z.object({
  id,
  apiKey: text,
  name: text,
  mode: z.enum(["test", "live"]),
  currencies: z.array(text),
  card: z.boolean(),
  wallet: z.boolean(),
  void: z.boolean(),
  successUrl: nullableText,
  failureUrl: nullableText,
  webhookUrl: nullableText,
  settlementCutoff: nullableText,
  // Files written before rate limits existed hold merchants without one.
  rateLimitPerSecond: int.min(1).nullable().default(null),
});

const customer = z.object({ email: nullableText, name: nullableText, phone: nullableText });

const refund = z.object({
  refundTransactionId: text,
  transactionId: text,
  orderId: nullableText,
  merchantId: id,
  amountMinor: count,
  currency: text,
  state: z.enum(["SUCCESS", "Processing", "FAILED"]),
  operation: z.enum(["Refund", "refund_v1", "void"]),
  description: text,
  createdAt: instant,
});

const payment = z.object({
  transactionId: text,
  merchantId: id,
  mode: z.enum(["test", "live"]),
  orderId: nullableText,
  operation: z.enum(["checkout", "AddTransaction", "GetnewPayment"]),
  amountMinor: count,
  currency: text,
  status: z.enum(["PENDING", "SUCCESS", "FAILURE"]),
  description: text,
  responseCode: nullableText,
  authCode: nullableText,
  cardToken: nullableText,
  cardLast4: nullableText,
  customer,
  openedAt: instant,
  createdAt: instant,
  settlesAt: instant.nullable(),
  /** The refund that returned its money, by refund transaction id. */
  refundTransactionId: nullableText,
});

const token = z.object({
  token: text,
  merchantId: id,
  kind: z.enum(["recurring", "autosave"]),
  amountMinor: count.nullable(),
  currency: text,
  /** The simulated card is rebuilt from its number, so its behaviour follows the card table. */
  cardNumber: text,
  cardLast4: text,
  customer,
  sourceTransactionId: text,
  issuedAt: instant,
  expiresAt: instant,
  deactivatedAt: instant.nullable(),
  collections: count,
});

const checkout = z.object({
  id: text,
  merchantId: id,
  flow: z.discriminatedUnion("kind", [
    z.object({
      kind: z.literal("v1"),
      successUrl: nullableText,
      failureUrl: nullableText,
      saveToken: z.boolean(),
    }),
    z.object({
      kind: z.literal("legacy"),
      recurring: z.boolean(),
      autoSave: z.boolean(),
      isVoid: z.boolean(),
      cardType: z.enum(["credit", "debit", "both"]),
    }),
  ]),
  language: z.enum(["en", "ar"]),
  note: nullableText,
  pushToken: nullableText,
  /** Its payment, by transaction id (the payment store holds the object). */
  transactionId: text,
  redirectUrl: nullableText,
  voidOutcome: z
    .union([
      z.object({ refunded: z.literal(true), refundTransactionId: text }),
      z.object({ refunded: z.literal(false), description: text }),
    ])
    .nullable(),
});

const channel = z.enum(["v1", "legacy"]);
const outcome = z.enum(["SUCCESS", "FAILURE"]);

const events = z.object({
  webhooks: z.array(
    z.object({
      interface: channel,
      transaction_id: text,
      order_id: nullableText,
      method: z.literal("GET"),
      url: text,
      params: z.record(text, text),
      state: z.enum(["pending", "delivered", "failed"]),
      response_status: int.nullable(),
      error: nullableText,
      at: text,
    }),
  ),
  redirects: z.array(
    z.object({
      interface: channel,
      checkout_id: text,
      transaction_id: text,
      order_id: nullableText,
      status: outcome,
      url: nullableText,
      reason: z.enum(["payment", "reopen"]),
      at: text,
    }),
  ),
  pushes: z.array(
    z.object({
      push_token: text,
      transaction_id: text,
      order_id: nullableText,
      status: outcome,
      message: text,
      at: text,
    }),
  ),
});

const language = z.enum(["ar", "en"]);

const invoice = z.object({
  id,
  merchantId: id,
  number: text,
  amountMinor: count,
  currency: text,
  termsConditions: text,
  note: nullableText,
  date: dateTime,
  status: z.enum(INVOICE_STATUSES),
  type: z.enum(["quick", "detailed"]),
  clientId: id.nullable(),
  title: text,
  link: text,
  description: nullableText,
  items: z
    .array(z.object({ id, productId: id.nullable(), description: text, qty: decimal, amountMinor: count }))
    .readonly(),
  payments: z
    .array(
      z.object({
        id,
        paymentDate: dateTime,
        transactionId: text,
        amountMinor: count,
        note: text,
        paymentType: z.enum(PAYMENT_TYPES),
        status: z.enum(PAYMENT_STATUSES),
      }),
    )
    .readonly(),
  setting: z.object({
    tax: z.boolean(),
    discount: text,
    discountType: z.enum(["percentage", "fixed"]),
    language,
    acceptedPaymentMethods: z.object({
      card: z.boolean(),
      bank_transfer: z.boolean(),
      cash: z.boolean(),
      wallet: z.boolean(),
      e_signature: z.boolean(),
    }),
  }),
  createdAt: dateTime,
});

const product = z.object({
  id,
  merchantId: id,
  name: text,
  sku: text,
  priceMinor: count,
  currency: text,
  image: text,
  description: text,
  createdAt: dateTime,
  category: z.array(text).readonly(),
  qrCode: text,
  link: text,
  online: z.boolean(),
  language,
  setting: z.object({
    isPublic: z.boolean(),
    isLimited: z.boolean(),
    isCashier: z.boolean(),
    maxCount: decimal,
    maxOrder: int,
  }),
});

export const STATE_VERSION = 1;

export const stateSchema = z.object({
  version: z.literal(STATE_VERSION),
  ids: z.object({ random: int.min(0).max(2 ** 32 - 1), transactionIds: z.array(text) }),
  merchants: z.object({ defaultApiKey: text, nextId: id, merchants: z.array(merchant) }),
  payments: z.array(payment),
  refunds: z.array(refund),
  tokens: z.array(token),
  checkouts: z.array(checkout),
  bearers: z.array(z.object({ value: text, merchantId: id, expiresAt: instant })),
  events,
  invoices: z.object({
    invoices: z.array(invoice),
    clients: z.object({
      nextId: id,
      clients: z.array(z.object({ id, merchantId: id, name: text, email: text, phone: text, address: text })),
    }),
    numbering: z.array(z.object({ merchantId: id, next: id })),
    nextInvoiceId: id,
    nextItemId: id,
    nextPaymentId: id,
  }),
  catalogue: z.object({
    seed: int,
    catalogues: z.array(z.object({ merchantId: id, products: z.array(product) })),
  }),
  delayed: z.array(
    z.object({
      operation: z.enum(DELAYABLE_OPERATIONS),
      body: z.unknown(),
      receivedAt: instant,
      dueAt: instant,
    }),
  ),
});

/** The state as the stores hold it (decoded); the file holds its encoding. */
export type SimulatorState = z.output<typeof stateSchema>;
