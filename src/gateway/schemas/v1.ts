import { z } from "zod";
import type { CheckoutResult } from "../types/common.js";
import type { V1RefundResult } from "../types/v1.js";
import { boolLike, gatewayMode, intLike, requiredText } from "./normalise.js";
import { currencyCode, language, positiveDecimal, present } from "./wire.js";

/** Wire shapes of the v1 checkout, refund and Authorize operations, and of the v1 error body. */

export const checkoutRequest = z.strictObject({
  amount: positiveDecimal,
  currency: currencyCode,
  order_id: present,
  client: z
    .strictObject({
      name: z.string().optional(),
      phone: present.optional(),
      email: z.email().optional(),
    })
    .refine((client) => client.phone !== undefined || client.email !== undefined, {
      message: "client needs a phone (with country code) or an e-mail",
    }),
  language: language.optional(),
  success_url: z.url().optional(),
  failure_url: z.url().optional(),
  push_token: present.optional(),
  save_token: z.boolean().optional(),
  note: z.string().optional(),
});

export const v1RefundRequest = z.strictObject({ transaction_id: present, order_id: present });

export const checkoutReply = z
  .object({ result: z.object({ checkout_url: z.url() }) })
  .transform((reply): CheckoutResult => ({ checkoutUrl: reply.result.checkout_url }));

export const v1RefundReply = z
  .object({
    result: z.object({
      refund_status: z
        .string()
        .trim()
        .toLowerCase()
        .pipe(z.enum(["completed", "under_processing"])),
      mode: gatewayMode,
      refund_transaction_id: requiredText,
    }),
  })
  .transform(
    ({ result }): V1RefundResult => ({
      refundStatus: result.refund_status,
      mode: result.mode,
      refundTransactionId: result.refund_transaction_id,
    }),
  );

/**
 * Authorize is not in the spec; public documentation shows `{success, bearer_token}`. Read after
 * `normaliseKeys`; an expiry is taken when present as seconds (`expires_in`) or an instant
 * (`expires_at`, ISO text or epoch seconds).
 */
export const authorizeReply = z.object({
  success: boolLike.optional(),
  bearer_token: z.string().trim().min(1).optional(),
  expires_in: intLike.optional(),
  expires_at: z.union([z.string(), z.number()]).optional(),
  description: z.string().optional(),
  message: z.string().optional(),
});

/** `{status, error: {error_code, description}}` of failed v1 calls. */
export const v1ErrorBody = z.object({
  status: z.string().optional(),
  error: z.object({
    error_code: z.union([z.string(), z.number()]).optional(),
    description: z.string().optional(),
  }),
});
