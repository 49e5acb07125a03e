import { z } from "zod";
import type { LegacyRefundResult, PaymentRecord } from "../types/legacy.js";
import {
  boolLike,
  compact,
  decimalText,
  exactMoney,
  gatewayMode,
  legacyResult,
  moneyOrIssue,
  optionalText,
  requiredText,
} from "./normalise.js";
import { currencyCode, language, positiveDecimal, present } from "./wire.js";

/**
 * Wire shapes of the legacy v3 interface. Request schemas check what is sent (field names exactly as
 * the gateway spells them); reply schemas read replies after `normaliseKeys`, so they use lower-case
 * keys only.
 */

const apiToken = present;
const optionalString = z.string().optional();

export const addTransactionRequest = z
  .strictObject({
    token: apiToken,
    PushToken: present.optional(),
    currencyCode,
    orderId: present,
    amount: positiveDecimal,
    customerEmail: z.email(),
    customerName: optionalString,
    customerPhone: optionalString,
    customerCountry: optionalString,
    lang: language.optional(),
    note: optionalString,
    isRecurring: z.boolean().optional(),
    autoSave: z.enum(["yes", "no"]).optional(),
    isVoid: z.boolean().optional(),
    cardType: z.enum(["credit", "debit", "both"]).optional(),
  })
  .refine((body) => !body.isVoid || body.isRecurring === true || body.autoSave === "yes", {
    message: "isVoid is only used with isRecurring or autoSave",
    path: ["isVoid"],
  });

export const legacyRefundRequest = z.strictObject({
  token: apiToken,
  orderId: present,
  transactionID: present.optional(),
});

export const checkStatusRequest = legacyRefundRequest;

export const validatePaymentRequest = z.strictObject({ token: apiToken, orderId: present });

export const getNewPaymentRequest = z
  .strictObject({
    token: apiToken,
    cardToken: present,
    orderId: present.optional(),
    amount: positiveDecimal.optional(),
  })
  // A recurring token implies its amount, so an amount only goes with an orderId (autosave tokens
  // need both). An orderId alone is our reference for a recurring collection, which is what lets
  // CheckStatus find the payment when the reply is lost.
  .refine((body) => body.amount === undefined || body.orderId !== undefined, {
    message: "amount goes with an orderId (autosave token); a recurring token sends no amount",
    path: ["orderId"],
  });

export const stopRecurringRequest = z.strictObject({ token: apiToken, cardToken: present });

/** Every legacy reply: the result plus what failures carry. */
export const legacyEnvelope = z.object({
  result: legacyResult,
  description: optionalText,
  transactionid: optionalText,
});

export const legacyRefundReply = z
  .object({
    refundstate: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(["success", "processing"])),
    mode: gatewayMode,
    refundtransactionid: requiredText,
  })
  .transform(
    (reply): LegacyRefundResult => ({
      refundState: reply.refundstate === "success" ? "SUCCESS" : "Processing",
      mode: reply.mode,
      refundTransactionId: reply.refundtransactionid,
    }),
  );

/** The spec's default currency; a record that omits currencyCode is in it. */
const DEFAULT_CURRENCY = "QAR";

export const paymentRecordReply = z
  .object({
    transactionid: requiredText,
    amount: decimalText,
    currencycode: optionalText,
    customeremail: optionalText,
    customerphone: optionalText,
    customername: optionalText,
    paymentdate: requiredText,
    paymentstate: z
      .string()
      .trim()
      .toUpperCase()
      .pipe(z.enum(["SUCCESS", "PENDING", "FAILURE"])),
    auth: optionalText,
    mode: gatewayMode,
    exchangerate: decimalText.nullish(),
    paidamount: decimalText.nullish(),
    // The card token is kept byte for byte (no trimming); only an empty value means "none".
    token: z.string().nullish(),
    description: optionalText,
    refundstate: boolLike.nullish(),
    refundstatus: optionalText,
    refunddescription: optionalText,
    refundtransactionid: optionalText,
  })
  .transform((record, ctx): PaymentRecord => {
    const currency = record.currencycode?.toUpperCase() ?? DEFAULT_CURRENCY;
    const amount = moneyOrIssue(ctx, "amount", record.amount, currency);
    // PaidAmount's currency is not stated (with an exchange rate it may be another one), so it is
    // read in the payment's currency only when exact there; it must not block a status check.
    const paidAmount = record.paidamount == null ? undefined : exactMoney(record.paidamount, currency);
    return compact({
      transactionId: record.transactionid,
      amount,
      paymentDate: record.paymentdate,
      state: record.paymentstate,
      authCode: record.auth,
      mode: record.mode,
      cardToken: record.token || null,
      description: record.description,
      refundState: record.refundstate ?? undefined,
      refundStatus: record.refundstatus,
      refundDescription: record.refunddescription,
      refundTransactionId: record.refundtransactionid,
      customerEmail: record.customeremail,
      customerName: record.customername,
      customerPhone: record.customerphone,
      exchangeRate: record.exchangerate ?? undefined,
      paidAmount,
      paidAmountText: record.paidamount ?? undefined,
    });
  });

export const paymentLookupReply = z.object({ payment: paymentRecordReply });

export const getNewPaymentReply = z
  .object({ transactionid: requiredText, authcode: requiredText, mode: gatewayMode })
  .transform((reply) => ({ transactionId: reply.transactionid, authCode: reply.authcode, mode: reply.mode }));
