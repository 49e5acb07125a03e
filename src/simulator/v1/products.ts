import type { Clock } from "../../clock/index.js";
import type { SimMerchant, SimReply } from "../types.js";
import type { ProductCatalogue } from "./catalogue.js";
import { merchantCurrency } from "./invoices-currency.js";
import { parseDecimal } from "./invoices-decimal.js";
import { guarded, moneyOf, parseRequest } from "./invoices-validation.js";
import { matchesQuery, presentParams, productQuerySchema } from "./products-query.js";
import { productRequestSchema } from "./products-schema.js";
import { productView } from "./products-view.js";

/** GET /v1/products and the simulator's POST /_sim/products. */

export { ProductCatalogue } from "./catalogue.js";

/** Filters the merchant's products, in id order, and answers one page with the total that matched. */
export function listProducts(
  ctx: { merchant: SimMerchant; catalogue: ProductCatalogue },
  query: Record<string, string | undefined>,
): SimReply {
  return guarded(() => {
    const filter = parseRequest(productQuerySchema, presentParams(query));
    const matching = ctx.catalogue.products(ctx.merchant).filter((product) => matchesQuery(product, filter));
    const start = (filter.page - 1) * filter.page_size;
    return {
      status: 200,
      body: {
        status: "SUCCESS",
        products: matching.slice(start, start + filter.page_size).map(productView),
        total: matching.length,
        page_size: filter.page_size,
        page: filter.page,
      },
    };
  });
}

/** Adds a product to the merchant's catalogue (the spec shows no product creation; tests need one). */
export function addProduct(
  ctx: { merchant: SimMerchant; catalogue: ProductCatalogue; clock: Clock },
  body: unknown,
): SimReply {
  return guarded(() => {
    const request = parseRequest(productRequestSchema, body);
    const currency = merchantCurrency(ctx.merchant, request.currency);
    const { setting } = request;
    const product = ctx.catalogue.add(ctx.merchant, {
      name: request.name,
      sku: request.sku,
      priceMinor: moneyOf("price", request.price, currency),
      currency,
      image: request.image,
      description: request.description,
      createdAt: request.creation_date ?? ctx.clock.now(),
      category: request.category,
      online: request.status === "online",
      language: request.language,
      setting: {
        isPublic: setting.is_public,
        isLimited: setting.is_limited,
        isCashier: setting.is_casheir,
        maxCount: parseDecimal(setting.max_count),
        maxOrder: setting.max_order,
      },
    });
    return { status: 201, body: { status: "SUCCESS", product: productView(product) } };
  });
}
