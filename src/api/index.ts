/** The merchant HTTP API (/v1), its OpenAPI document (/openapi.json) and docs page (/docs). */

export { type RefundChargeInput, type RefundRow, refundCharge } from "../refunds/index.js";
export { DOCS_PATH, OPENAPI_PATH } from "./openapi.js";
export { sendProblem } from "./problem.js";
export { registerMerchantApi } from "./register.js";
