export { GatewayAuthenticationError } from "./authentication-error.js";
export { GatewayDeclinedError } from "./declined-error.js";
export { type GatewayFailure, gatewayErrorFrom } from "./factory.js";
export { GatewayError, type GatewayErrorFlags, type GatewayErrorInit } from "./gateway-error.js";
export { GatewayNotFoundError } from "./not-found-error.js";
export { GatewayRejectedError } from "./rejected-error.js";
export { GatewayUnavailableError } from "./unavailable-error.js";
export { GatewayUnknownResultError } from "./unknown-result-error.js";
