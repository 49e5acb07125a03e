/** The merchant HTTP API (/v1), its OpenAPI document (/openapi.json) and docs page (/docs). */
export { DOCS_PATH, OPENAPI_PATH } from "./openapi.js";
export { ApiProblem } from "./problem.js";
export { registerMerchantApi } from "./register.js";
export { type RefundChargeInput, type RefundRow, refundCharge } from "./services/refund-charge.js";
