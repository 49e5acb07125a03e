/** The engine's HTTP server: health, the gateway's callbacks, and (later) the merchant API. */
export {
  GATEWAY_CALLBACK_PATHS,
  type GatewayCallbackUrls,
  gatewayCallbackUrls,
  registerGatewayRoutes,
} from "./gateway-routes.js";
export { type HealthRouteOptions, registerHealthRoutes } from "./health-routes.js";
export { NEW_CARD_PATH, newCardLink, registerNewCardRoutes } from "./new-card-link.js";
export { type PageLanguage, type ResultPageKind, resultPage } from "./result-page.js";
export {
  type BuildServerOptions,
  buildServer,
  type RunningServer,
  type StartServerOptions,
  startServer,
} from "./server.js";
