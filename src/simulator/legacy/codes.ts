import type { SimReply } from "../types.js";

/** The legacy result codes; failures travel with HTTP 200, like every legacy reply. */
export const LegacyCode = {
  unauthorized: -1,
  orderNotFound: -2,
  currencyNotSupported: -3,
  noRecurringPayment: -7,
  invalidToken: -8,
  badRequest: -10,
  noCurrencyData: -20,
  voidNotSupported: -21,
} as const;

export type LegacyCodeValue = (typeof LegacyCode)[keyof typeof LegacyCode];

export function legacyFailure(code: LegacyCodeValue): SimReply {
  return { status: 200, body: { result: code } };
}

export function legacyOk(body: Record<string, unknown>): SimReply {
  return { status: 200, body };
}

/** "Test"/"Live", the casing of the payment record's mode, used by every legacy reply and redirect. */
export function legacyMode(mode: "test" | "live"): "Test" | "Live" {
  return mode === "live" ? "Live" : "Test";
}
