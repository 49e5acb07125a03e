import { z } from "zod";
import type { Money } from "../../money/index.js";
import type { Invoice, InvoiceDiscount, InvoicePayment } from "../types/invoice.js";
import {
  boolLike,
  compact,
  decimalText,
  intLike,
  moneyOrIssue,
  optionalText,
  requiredText,
} from "./normalise.js";
import { currencyCode, language, nonNegativeDecimal, positiveDecimal, present, text300 } from "./wire.js";

/** Wire shapes of POST /v1/invoices: the request with the spec's rules, and the 201 reply. */

const invoiceClientWire = z.strictObject({
  id: z.number().int().optional(),
  name: text300.optional(),
  email: z.email(),
  phone: z.string().optional(),
  address: text300.optional(),
});

const invoiceItemWire = z.strictObject({
  product_id: z.string().optional(),
  description: present,
  qty: nonNegativeDecimal.optional(),
  amount: nonNegativeDecimal,
});

const invoicePaymentWire = z.strictObject({
  payment_date: present,
  transaction_id: z.string().optional(),
  amount: positiveDecimal,
  note: text300.optional(),
  payment_type: z.string().optional(),
  status: z.enum(["paid", "active", "refund"]).optional(),
});

const invoiceSettingWire = z.strictObject({
  tax: z.boolean().optional(),
  discount: nonNegativeDecimal.optional(),
  discount_type: z.enum(["percentage", "fixed"]).optional(),
  language: language.optional(),
  accepted_payment_methods: z
    .strictObject({
      card: z.boolean().optional(),
      bank_transfer: z.boolean().optional(),
      cash: z.boolean().optional(),
      wallet: z.boolean().optional(),
      e_signature: z.boolean().optional(),
    })
    .optional(),
});

export const invoiceRequestWire = z
  .strictObject({
    description: text300.optional(),
    amount: positiveDecimal.optional(),
    items: z.array(invoiceItemWire).min(1).optional(),
    date: z.string().optional(),
    status: z.enum(["sent", "paid", "void", "refund"]).optional(),
    number: z.string().optional(),
    currency: currencyCode,
    client: invoiceClientWire.optional(),
    note: text300.optional(),
    type: z.literal("detailed").optional(),
    terms_conditions: text300.optional(),
    payments: z.array(invoicePaymentWire).optional(),
    setting: invoiceSettingWire.optional(),
    title: text300.optional(),
  })
  .superRefine((invoice, ctx) => {
    const quick = invoice.description !== undefined && invoice.amount !== undefined;
    if (!quick && invoice.items === undefined) {
      ctx.addIssue({
        code: "custom",
        message: "a quick invoice needs description and amount; a detailed invoice needs items",
      });
    }
    // Payments belong to paid and refunded invoices only; sent is the gateway's default status.
    const status = invoice.status ?? "sent";
    const needsPayments = status === "paid" || status === "refund";
    if (needsPayments && !invoice.payments?.length) {
      ctx.addIssue({ code: "custom", path: ["payments"], message: `status ${status} needs payments` });
    }
    if (!needsPayments && invoice.payments !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["payments"],
        message: `status ${status} must not carry payments`,
      });
    }
  });

export type InvoiceRequestWire = z.input<typeof invoiceRequestWire>;

const lowerText = optionalText.transform((text) => text?.toLowerCase());

const invoiceClientReply = z
  .object({
    id: intLike.nullish(),
    name: optionalText,
    email: optionalText,
    phone: optionalText,
    address: optionalText,
    notes: optionalText,
  })
  .transform((client) => compact({ ...client, id: client.id ?? undefined }));

const invoiceItemReply = z.object({
  id: intLike.nullish(),
  product_id: intLike.nullish(),
  description: z.string(),
  type: optionalText,
  qty: decimalText.nullish(),
  amount: decimalText,
});

const invoicePaymentReply = z.object({
  id: intLike.nullish(),
  payment_date: requiredText,
  transaction_id: optionalText,
  amount: decimalText,
  note: optionalText,
  payment_type: lowerText,
  status: lowerText,
});

const invoiceSettingReply = z.object({
  tax: boolLike.nullish(),
  discount: decimalText.nullish(),
  discount_type: lowerText,
  language: optionalText,
  accepted_payment_methods: z
    .object({
      card: boolLike.nullish(),
      bank_transfer: boolLike.nullish(),
      cash: boolLike.nullish(),
      wallet: boolLike.nullish(),
      e_signature: boolLike.nullish(),
    })
    .nullish(),
});

const invoiceReplyBody = z.object({
  id: intLike,
  number: optionalText,
  amount: decimalText.nullish(),
  currency: z.string().trim().toUpperCase(),
  terms_conditions: optionalText,
  note: optionalText,
  date: optionalText,
  status: lowerText,
  type: optionalText,
  client: invoiceClientReply.nullish(),
  title: optionalText,
  link: optionalText,
  description: optionalText,
  items: z.array(invoiceItemReply).nullish(),
  payments: z.array(invoicePaymentReply).nullish(),
  setting: invoiceSettingReply.nullish(),
});

type SettingReply = z.output<typeof invoiceSettingReply>;

function discountOf(
  setting: SettingReply,
  toMoney: (field: string, amount: string) => Money,
): InvoiceDiscount | undefined {
  if (setting.discount == null) return undefined;
  if (setting.discount_type === "percentage")
    return { type: "percentage", percent: Number(setting.discount) };
  return { type: "fixed", amount: toMoney("setting.discount", setting.discount) };
}

export const invoiceReply = z.object({ invoice: invoiceReplyBody }).transform(({ invoice }, ctx): Invoice => {
  const { currency } = invoice;
  const toMoney = (field: string, amount: string): Money => moneyOrIssue(ctx, field, amount, currency);
  const setting = invoice.setting;
  const methods = setting?.accepted_payment_methods;
  return compact({
    id: invoice.id,
    number: invoice.number,
    amount: invoice.amount == null ? undefined : toMoney("amount", invoice.amount),
    currency,
    termsConditions: invoice.terms_conditions,
    note: invoice.note,
    date: invoice.date,
    status: invoice.status,
    type: invoice.type,
    client: invoice.client ?? undefined,
    title: invoice.title,
    link: invoice.link,
    description: invoice.description,
    items: (invoice.items ?? []).map((item) =>
      compact({
        id: item.id ?? undefined,
        productId: item.product_id ?? undefined,
        description: item.description,
        type: item.type,
        qty: item.qty ?? undefined,
        amount: toMoney("items.amount", item.amount),
      }),
    ),
    payments: (invoice.payments ?? []).map(
      (payment): InvoicePayment =>
        compact({
          id: payment.id ?? undefined,
          paymentDate: payment.payment_date,
          transactionId: payment.transaction_id,
          amount: toMoney("payments.amount", payment.amount),
          note: payment.note,
          paymentType: payment.payment_type,
          status: payment.status,
        }),
    ),
    setting: setting
      ? compact({
          tax: setting.tax ?? undefined,
          discount: discountOf(setting, toMoney),
          language: setting.language,
          acceptedPaymentMethods: methods
            ? compact({
                card: methods.card ?? undefined,
                bankTransfer: methods.bank_transfer ?? undefined,
                cash: methods.cash ?? undefined,
                wallet: methods.wallet ?? undefined,
                eSignature: methods.e_signature ?? undefined,
              })
            : undefined,
        })
      : undefined,
  });
});
