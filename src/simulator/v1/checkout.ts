import { z } from "zod";
import { openCheckout } from "../checkout/open-checkout.js";
import type { SimulatorCore } from "../core.js";
import { resolveCurrency } from "../merchants/currency.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import { parseAmount } from "../support/amount.js";
import { describeZodError } from "../support/zod-error.js";
import type { SimReply } from "../types.js";
import { badRequest } from "./errors.js";

const optionalText = z.string().nullish();
const optionalUrl = z.url({ protocol: /^https?$/ }).nullish();

const checkoutSchema = z.object({
  amount: z.union([z.string(), z.number()]),
  currency: z.string().length(3, "must be a three-character ISO code").nullish(),
  order_id: z.string().refine((value) => value.trim() !== "", "is required"),
  client: z
    .object({
      name: optionalText,
      phone: z.string().trim().min(1).nullish(),
      email: z.email().nullish(),
    })
    .nullish(),
  language: z.enum(["en", "ar"]).nullish(),
  success_url: optionalUrl,
  failure_url: optionalUrl,
  push_token: optionalText,
  save_token: z.boolean().nullish(),
  note: optionalText,
});

/**
 * POST /v1/payments/checkout. 400 for a missing or malformed field, a currency that is not ISO or not
 * enabled for the merchant, a client with neither phone nor e-mail, or a merchant with card payments off.
 */
export function checkoutV1(core: SimulatorCore, merchant: MerchantAccount, body: unknown): SimReply {
  const parsed = checkoutSchema.safeParse(body);
  if (!parsed.success) return badRequest(`Bad Request: ${describeZodError(parsed.error)}`);
  const request = parsed.data;
  if (!merchant.card) return badRequest("Bad Request: card payments are not enabled for this merchant");
  const resolved = resolveCurrency(merchant, request.currency ?? undefined);
  if ("problem" in resolved) {
    return badRequest(
      resolved.problem === "invalid"
        ? "Bad Request: currency is not a valid ISO currency code"
        : "Bad Request: currency is not supported by the account",
    );
  }
  const amountMinor = parseAmount(request.amount, resolved.currency);
  if (amountMinor === undefined) {
    return badRequest(
      `Bad Request: amount must be a positive decimal with at most the ${resolved.currency} decimals`,
    );
  }
  const client = request.client ?? {};
  if (!client.phone && !client.email)
    return badRequest("Bad Request: client.phone or client.email is required");

  const url = openCheckout(core, merchant, {
    operation: "checkout",
    flow: {
      kind: "v1",
      successUrl: request.success_url ?? null,
      failureUrl: request.failure_url ?? null,
      saveToken: request.save_token ?? false,
    },
    orderId: request.order_id,
    amountMinor,
    currency: resolved.currency,
    customer: { email: client.email ?? null, name: client.name ?? null, phone: client.phone ?? null },
    language: request.language ?? "en",
    note: request.note ?? null,
    pushToken: request.push_token ?? null,
  });
  return { status: 200, body: { status: "SUCCESS", result: { checkout_url: url } } };
}
