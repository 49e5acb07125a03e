/**
 * How the card token is charged. `recurring`: the gateway stored the amount with the token and
 * GetnewPayment takes none. `autosave`: the merchant sends the amount (and a unique orderId) on
 * every charge. A module of its own, free of zod, so the CLI can list them in its help.
 */
export const BILLING_MODES = ["recurring", "autosave"] as const;
export type BillingMode = (typeof BILLING_MODES)[number];
