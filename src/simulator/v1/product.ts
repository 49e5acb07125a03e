import type { DateTime } from "luxon";
import type { Decimal } from "./invoices-decimal.js";

/** A product of the v1 catalogue, as the simulator keeps it. */
export interface Product {
  readonly id: number;
  readonly merchantId: number;
  readonly name: string;
  readonly sku: string;
  readonly priceMinor: number;
  readonly currency: string;
  readonly image: string;
  readonly description: string;
  readonly createdAt: DateTime;
  readonly category: readonly string[];
  readonly qrCode: string;
  readonly link: string;
  /** online products report status Active, offline ones Inactive. */
  readonly online: boolean;
  readonly language: "ar" | "en";
  readonly setting: {
    readonly isPublic: boolean;
    readonly isLimited: boolean;
    readonly isCashier: boolean;
    readonly maxCount: Decimal;
    readonly maxOrder: number;
  };
}

/** A product before the catalogue gives it an id and its URLs (an image may be supplied). */
export type ProductDraft = Omit<Product, "id" | "merchantId" | "image" | "qrCode" | "link"> & {
  readonly image: string | undefined;
};
