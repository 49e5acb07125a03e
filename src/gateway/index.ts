export { BearerCache, type BearerSource, staticBearer, withBearer } from "./bearer.js";
export { createGatewayClient, type GatewayClient, type GatewayClientOptions } from "./client.js";
export {
  GatewayAuthenticationError,
  GatewayDeclinedError,
  GatewayError,
  type GatewayErrorFlags,
  type GatewayErrorInit,
  type GatewayFailure,
  GatewayNotFoundError,
  GatewayRejectedError,
  GatewayUnavailableError,
  GatewayUnknownResultError,
  gatewayErrorFrom,
} from "./errors/index.js";
export type { LegacyClient } from "./legacy-client.js";
export { GATEWAY_OPERATIONS, type GatewayOperation, isMoneyMoving } from "./operations.js";
export { isRetrySafe, type ReadRetryPolicy, withReadRetries } from "./retry.js";
export { type LegacyResult, normaliseKeys } from "./schemas/normalise.js";
export type { CheckoutResult, GatewayMode } from "./types/common.js";
export type {
  AcceptedPaymentMethods,
  Invoice,
  InvoiceClient,
  InvoiceClientInput,
  InvoiceDiscount,
  InvoiceItem,
  InvoiceItemInput,
  InvoicePayment,
  InvoicePaymentInput,
  InvoicePaymentStatus,
  InvoiceRequest,
  InvoiceSetting,
  InvoiceSettingInput,
  InvoiceStatus,
} from "./types/invoice.js";
export type {
  AddTransactionInput,
  CardType,
  CheckStatusInput,
  GetNewPaymentInput,
  GetNewPaymentResult,
  LegacyRefundInput,
  LegacyRefundResult,
  PaymentLookup,
  PaymentRecord,
  PaymentState,
  StopRecurringInput,
  ValidatePaymentInput,
} from "./types/legacy.js";
export type {
  BearerGrant,
  CheckoutInput,
  ListProductsInput,
  Product,
  ProductPage,
  ProductSetting,
  ProductStatusFilter,
  V1RefundInput,
  V1RefundResult,
} from "./types/v1.js";
export type { V1Client } from "./v1-client.js";
