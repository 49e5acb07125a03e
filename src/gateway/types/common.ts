/** Shapes shared by the v1 and legacy halves of the client. */

/** The merchant's mode as the gateway reports it, normalised to lower case. */
export type GatewayMode = "live" | "test";

export interface CheckoutResult {
  /** Where to send the client to enter card data. */
  checkoutUrl: string;
}
