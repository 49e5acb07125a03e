import { z } from "zod";
import type { Product, ProductPage } from "../types/v1.js";
import { boolLike, compact, decimalText, intLike, moneyOrIssue, optionalText } from "./normalise.js";

/** Query parameters of GET /v1/products, named as the gateway spells them (note `Id`). */
export const listProductsQuery = z.strictObject({
  q: z.string().optional(),
  status: z.enum(["online", "offline", "cashier"]).optional(),
  page: z.number().int().min(1).max(1000).optional(),
  page_size: z.number().int().min(1).max(100).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  Id: z.number().int().optional(),
  sku: z.string().optional(),
  is_cashier: z.boolean().optional(),
  is_public: z.boolean().optional(),
  category: z.string().optional(),
  min: z.number().int().optional(),
  max: z.number().int().optional(),
});

const productSetting = z
  .object({
    is_public: boolLike.nullish(),
    is_limited: boolLike.nullish(),
    // Spelled so by the gateway; the correct spelling is accepted as well.
    is_casheir: boolLike.nullish(),
    is_cashier: boolLike.nullish(),
    max_count: decimalText.nullish(),
    max_order: intLike.nullish(),
  })
  .transform((setting) =>
    compact({
      isPublic: setting.is_public ?? undefined,
      isLimited: setting.is_limited ?? undefined,
      isCashier: setting.is_casheir ?? setting.is_cashier ?? undefined,
      maxCount: setting.max_count == null ? undefined : Number(setting.max_count),
      maxOrder: setting.max_order ?? undefined,
    }),
  );

export const productReply = z
  .object({
    id: intLike,
    name: z.string(),
    sku: optionalText,
    price: decimalText,
    image: optionalText,
    description: optionalText,
    creation_date: optionalText,
    currency: z.string().trim().toUpperCase(),
    // A single category sometimes arrives as plain text.
    category: z.union([z.array(z.string()), z.string().transform((one) => [one])]).nullish(),
    qr_code: optionalText,
    link: optionalText,
    status: optionalText,
    language: optionalText,
    setting: productSetting.nullish(),
  })
  .transform((product, ctx): Product => {
    const price = moneyOrIssue(ctx, "price", product.price, product.currency);
    return compact({
      id: product.id,
      name: product.name,
      sku: product.sku,
      price,
      image: product.image,
      description: product.description,
      creationDate: product.creation_date,
      currency: product.currency,
      category: product.category ?? [],
      qrCode: product.qr_code,
      link: product.link,
      status: product.status,
      language: product.language,
      setting: product.setting ?? undefined,
    });
  });

export const productPageReply = z
  .object({
    products: z.array(productReply),
    total: intLike,
    page_size: intLike,
    page: intLike,
  })
  .transform(
    (reply): ProductPage => ({
      products: reply.products,
      total: reply.total,
      page: reply.page,
      pageSize: reply.page_size,
    }),
  );
