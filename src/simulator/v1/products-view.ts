import { toDecimalString } from "../../money/index.js";
import type { Product } from "./catalogue.js";
import { formatDecimal } from "./invoices-decimal.js";
import { wireDateTime } from "./invoices-validation.js";

/**
 * A product as "Product (v1)" lists it. Decimals are strings (price with the currency's decimals),
 * as in invoice replies. status is Active for online products and Inactive for offline ones;
 * cashier products are told apart by setting.is_casheir, spelled as the spec spells it.
 */
export function productView(product: Product) {
  return {
    id: product.id,
    name: product.name,
    sku: product.sku,
    price: toDecimalString(product.priceMinor, product.currency),
    image: product.image,
    description: product.description,
    creation_date: wireDateTime(product.createdAt),
    currency: product.currency,
    category: [...product.category],
    qr_code: product.qrCode,
    link: product.link,
    status: product.online ? "Active" : "Inactive",
    language: product.language,
    setting: {
      is_public: product.setting.isPublic,
      is_limited: product.setting.isLimited,
      is_casheir: product.setting.isCashier,
      max_count: formatDecimal(product.setting.maxCount),
      max_order: product.setting.maxOrder,
    },
  };
}

export type ProductView = ReturnType<typeof productView>;
