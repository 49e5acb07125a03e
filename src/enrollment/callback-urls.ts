/**
 * Paths the gateway calls (served by src/http/gateway-routes.ts). Legacy AddTransaction carries no
 * return URLs: the gateway sends the customer to the success and failure URLs set in the merchant
 * account and calls the webhook URL set there, so these are what the merchant configures (see
 * gatewayCallbackUrls), and what the runtime gives its in-process simulator's merchant.
 */
export const GATEWAY_CALLBACK_PATHS = {
  success: "/gateway/return/success",
  failure: "/gateway/return/failure",
  webhook: "/gateway/webhook",
} as const;

export interface GatewayCallbackUrls {
  successUrl: string;
  failureUrl: string;
  webhookUrl: string;
}

/**
 * The URLs to enter in the gateway's merchant account for our public base URL (which may have a
 * path prefix). The gateway wants URLs without a query string, so a base with one is refused.
 */
export function gatewayCallbackUrls(publicUrl: string): GatewayCallbackUrls {
  const base = new URL(publicUrl);
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new TypeError(`public URL must be http or https, got ${base.protocol}`);
  }
  if (base.search || base.hash) throw new TypeError("public URL must not carry a query string or fragment");
  const prefix = base.href.replace(/\/+$/, "");
  return {
    successUrl: `${prefix}${GATEWAY_CALLBACK_PATHS.success}`,
    failureUrl: `${prefix}${GATEWAY_CALLBACK_PATHS.failure}`,
    webhookUrl: `${prefix}${GATEWAY_CALLBACK_PATHS.webhook}`,
  };
}
