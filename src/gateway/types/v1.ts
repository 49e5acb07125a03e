import type { DateTime } from "luxon";
import type { Money } from "../../money/index.js";
import type { GatewayMode } from "./common.js";

export interface CheckoutInput {
  amount: Money;
  orderId: string;
  /** The gateway needs a phone (with country code) or an e-mail. */
  client: { name?: string; phone?: string; email?: string };
  language?: "en" | "ar";
  successUrl?: string;
  failureUrl?: string;
  pushToken?: string;
  saveToken?: boolean;
  note?: string;
}

export interface V1RefundInput {
  /** The bank transaction id of the payment. */
  transactionId: string;
  orderId: string;
}

export interface V1RefundResult {
  refundStatus: "completed" | "under_processing";
  mode: GatewayMode;
  refundTransactionId: string;
}

export type ProductStatusFilter = "online" | "offline" | "cashier";

export interface ListProductsInput {
  q?: string;
  status?: ProductStatusFilter;
  /** 1 to 1000. */
  page?: number;
  /** 1 to 100. */
  pageSize?: number;
  /** Created on or after this day (yyyy-mm-dd or a DateTime, sent as its calendar date). */
  from?: string | DateTime;
  to?: string | DateTime;
  id?: number;
  sku?: string;
  isCashier?: boolean;
  isPublic?: boolean;
  category?: string;
  min?: number;
  max?: number;
}

export interface ProductSetting {
  isPublic?: boolean;
  isLimited?: boolean;
  isCashier?: boolean;
  maxCount?: number;
  maxOrder?: number;
}

export interface Product {
  id: number;
  name: string;
  sku?: string;
  price: Money;
  image?: string;
  description?: string;
  creationDate?: string;
  currency: string;
  category: string[];
  qrCode?: string;
  link?: string;
  status?: string;
  language?: string;
  setting?: ProductSetting;
}

export interface ProductPage {
  products: Product[];
  total: number;
  page: number;
  pageSize: number;
}

export interface BearerGrant {
  bearerToken: string;
  /** When the gateway said the value expires; absent when it did not say. */
  expiresAt?: DateTime;
}
