import type { SimMerchant } from "../types.js";
import { sampleProducts } from "./catalogue-seed.js";
import { fieldError } from "./invoices-validation.js";
import type { Product, ProductDraft } from "./product.js";

/**
 * Each merchant's product store. A merchant's catalogue is filled with deterministic sample
 * products the first time it is read, so GET /v1/products has something to filter and page
 * through without setup. Product ids count from 1 within each merchant: seeding is lazy, and
 * merchant-local ids keep a merchant's sample ids the same whichever merchant is read first.
 */

export interface CatalogueState {
  seed: number;
  catalogues: { merchantId: number; products: Product[] }[];
}

/** Product URLs (image, link, qr_code) hang off this address; nothing serves them. */
export const PRODUCT_BASE_URL = "http://127.0.0.1/products";

export class ProductCatalogue {
  private readonly byMerchant = new Map<number, Product[]>();

  /** `seed` varies the sample prices, dates and limits; the same seed gives the same catalogue. */
  constructor(private seed = 1) {}

  clear(): void {
    this.byMerchant.clear();
  }

  /** The seed and the catalogues filled so far; the others fill from the seed when first read. */
  snapshot(): CatalogueState {
    const catalogues = [...this.byMerchant].map(([merchantId, products]) => ({ merchantId, products }));
    return { seed: this.seed, catalogues };
  }

  restore(state: CatalogueState): void {
    this.seed = state.seed;
    this.byMerchant.clear();
    for (const { merchantId, products } of state.catalogues) this.byMerchant.set(merchantId, [...products]);
  }

  /** The merchant's products in id order. */
  products(merchant: SimMerchant): readonly Product[] {
    return this.productsOf(merchant);
  }

  find(merchant: SimMerchant, id: number): Product | undefined {
    return this.productsOf(merchant).find((product) => product.id === id);
  }

  /** Adds a product; SKUs are unique within a merchant, ignoring case. */
  add(merchant: SimMerchant, draft: ProductDraft): Product {
    const products = this.productsOf(merchant);
    const sku = draft.sku.toLowerCase();
    if (products.some((product) => product.sku.toLowerCase() === sku))
      throw fieldError("sku", "already exists");
    return this.append(merchant.id, products, draft);
  }

  private productsOf(merchant: SimMerchant): Product[] {
    let products = this.byMerchant.get(merchant.id);
    if (!products) {
      products = [];
      this.byMerchant.set(merchant.id, products);
      for (const draft of sampleProducts(merchant, this.seed)) this.append(merchant.id, products, draft);
    }
    return products;
  }

  private append(merchantId: number, products: Product[], draft: ProductDraft): Product {
    const id = (products.at(-1)?.id ?? 0) + 1;
    const base = `${PRODUCT_BASE_URL}/${merchantId}/${id}`;
    const product: Product = {
      ...draft,
      id,
      merchantId,
      image: draft.image ?? `${base}/image.png`,
      qrCode: `${base}/qr.png`,
      link: base,
    };
    products.push(product);
    return product;
  }
}

export type { Product, ProductDraft } from "./product.js";
