import { z } from "zod";
import { dateTimeField, decimalField, parsedField } from "./invoices-validation.js";

/**
 * The body of the simulator-only POST /_sim/products: a product in the shape GET /v1/products
 * lists it, minus what the catalogue assigns (id, link, qr_code). status takes the list filter's
 * words, online or offline; a cashier product is one with setting.is_casheir true.
 */

const nonBlank = (value: string) => value.trim() !== "";

const maxOrderField = () =>
  parsedField(
    (value) => (typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined),
    "must be a non-negative integer",
  );

const settingSchema = z.object({
  is_public: z.boolean().default(true),
  is_limited: z.boolean().default(false),
  is_casheir: z.boolean().default(false),
  max_count: decimalField().default("0"),
  max_order: maxOrderField().default(0),
});

export const productRequestSchema = z.object({
  name: z.string().max(300).refine(nonBlank, "must not be empty"),
  sku: z.string().max(100).refine(nonBlank, "must not be empty"),
  price: decimalField(),
  description: z.string().max(300).default(""),
  currency: z.string().optional(),
  category: z.array(z.string().refine(nonBlank, "must not be empty")).default([]),
  image: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).optional(),
  status: z.enum(["online", "offline"]).default("online"),
  language: z.enum(["ar", "en"]).default("ar"),
  creation_date: dateTimeField().optional(),
  setting: settingSchema.prefault({}),
});

export type ProductRequest = z.output<typeof productRequestSchema>;
