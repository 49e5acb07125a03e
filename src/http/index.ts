/**
 * The engine's HTTP pages and their server: health, the gateway's callbacks and result pages,
 * payment links, documents, the ops dashboard, the customer portal and metrics. The merchant API is
 * src/api; src/app puts both on one server.
 */
export { registerDocumentRoutes } from "./document-routes.js";
export { registerGatewayRoutes } from "./gateway-routes.js";
export { registerHealthRoutes } from "./health-routes.js";
export { registerMetricsRoutes } from "./metrics-route.js";
export { newCardLink, registerNewCardRoutes } from "./new-card-link.js";
export { registerOpsRoutes } from "./ops/routes.js";
export { registerPaymentLinkRoutes } from "./payment-link-routes.js";
export { registerPortalRoutes } from "./portal/routes.js";
export { resultPage } from "./result-page.js";
export {
  type BuildServerOptions,
  createHttpServer,
  listenServer,
  type RunningServer,
  type StartServerOptions,
} from "./server.js";
