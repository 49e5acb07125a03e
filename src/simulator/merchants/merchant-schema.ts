import { z } from "zod";
import { isCurrency } from "../../money/index.js";
import { GUID, type MerchantSettings } from "./merchant.js";

/** The account settings accept only URLs without a query string, as the spec requires of them. */
const accountUrl = z
  .url({ protocol: /^https?$/ })
  .refine((value) => new URL(value).search === "", "must be a URL without query parameters")
  .nullable();

const currency = z
  .string()
  .transform((value) => value.toUpperCase())
  .refine(isCurrency, "must be an ISO 4217 currency code");

const fields = {
  name: z.string().trim().min(1).max(300),
  mode: z.enum(["test", "live"]),
  currencies: z.array(currency).min(1),
  card: z.boolean(),
  wallet: z.boolean(),
  void: z.boolean(),
  success_url: accountUrl,
  failure_url: accountUrl,
  webhook_url: accountUrl,
  settlement_cutoff: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected HH:MM (GMT)")
    .nullable(),
  rate_limit_per_second: z.number().int().min(1).nullable(),
};

export const createMerchantSchema = z.object({
  ...fields,
  mode: fields.mode.default("test"),
  currencies: fields.currencies.default(["QAR"]),
  card: fields.card.default(true),
  wallet: fields.wallet.default(false),
  void: fields.void.default(true),
  success_url: fields.success_url.default(null),
  failure_url: fields.failure_url.default(null),
  webhook_url: fields.webhook_url.default(null),
  settlement_cutoff: fields.settlement_cutoff.default("20:00"),
  // Left out, the simulator's default applies (settingsFromCreate); null asks for no limit.
  rate_limit_per_second: fields.rate_limit_per_second.optional(),
  api_key: z.string().regex(GUID, "must be a GUID").optional(),
});

export const patchMerchantSchema = z.object(fields).partial();

type SnakeSettings = z.output<typeof patchMerchantSchema>;

/** Maps the snake_case HTTP fields onto MerchantSettings, keeping undefined for fields not sent. */
export function toSettings(input: SnakeSettings): Partial<MerchantSettings> {
  return {
    name: input.name,
    mode: input.mode,
    currencies: input.currencies,
    card: input.card,
    wallet: input.wallet,
    void: input.void,
    successUrl: input.success_url,
    failureUrl: input.failure_url,
    webhookUrl: input.webhook_url,
    settlementCutoff: input.settlement_cutoff,
    rateLimitPerSecond: input.rate_limit_per_second,
  };
}

/**
 * The full settings of a new merchant: the create schema has filled every default but the rate
 * limit, which comes from the simulator's options (`defaultRateLimit`) when not sent.
 */
export function settingsFromCreate(
  input: z.output<typeof createMerchantSchema>,
  defaultRateLimit: number | null,
): MerchantSettings {
  return {
    name: input.name,
    mode: input.mode,
    currencies: input.currencies,
    card: input.card,
    wallet: input.wallet,
    void: input.void,
    successUrl: input.success_url,
    failureUrl: input.failure_url,
    webhookUrl: input.webhook_url,
    settlementCutoff: input.settlement_cutoff,
    rateLimitPerSecond:
      input.rate_limit_per_second === undefined ? defaultRateLimit : input.rate_limit_per_second,
  };
}
