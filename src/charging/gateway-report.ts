import {
  GatewayDeclinedError,
  GatewayError,
  GatewayNotFoundError,
  type GetNewPaymentResult,
} from "../gateway/index.js";

/**
 * What one GetnewPayment call tells us, in the terms the charge worker acts on. Pure, so the mapping
 * from the gateway client's errors is tested on its own:
 *
 * | gateway answer                                         | report         | money moved?      |
 * |--------------------------------------------------------|----------------|-------------------|
 * | result 1                                               | approved       | yes               |
 * | result 0 with transactionid and description            | declined       | no                |
 * | (GatewayDeclinedError)                                 |                |                   |
 * | -7 (no recurring or autosave payment for the token)    | token_unusable | no                |
 * | other negative result, 4xx, bad credentials            | rejected       | no                |
 * | 429 (too many requests: refused before processing)      | throttled      | no                |
 * | a connection that was never made                       | not_sent       | no                |
 * | timeout, 5xx, dropped or unreadable reply, unknown code| unknown        | maybe: reconcile  |
 * | result 0 without them (it may have been paid)          | unknown        | maybe: reconcile  |
 *
 * Anything that is not a GatewayError (a bug, an unexpected exception inside the client) is
 * `unknown`: the request may have left, so nobody may guess that it did not.
 */
export type GatewayReport =
  | { readonly kind: "approved"; readonly transactionId: string; readonly authCode: string | null }
  /** Always with the declined payment's transaction id: a decline without one proves nothing. */
  | { readonly kind: "declined"; readonly description: string; readonly transactionId: string }
  | { readonly kind: "token_unusable"; readonly code: string; readonly description: string }
  | { readonly kind: "rejected"; readonly code: string; readonly description: string }
  | { readonly kind: "not_sent"; readonly description: string }
  | { readonly kind: "throttled"; readonly description: string }
  | { readonly kind: "unknown"; readonly description: string };

/** Legacy result "Not Found: no recurring or autosave payment exists … with the request parameter". */
export const TOKEN_NOT_FOUND_CODE = -7;

export function reportFromReply(reply: GetNewPaymentResult): GatewayReport {
  return { kind: "approved", transactionId: reply.transactionId, authCode: reply.authCode || null };
}

export function reportFromError(error: unknown): GatewayReport {
  if (!(error instanceof GatewayError)) {
    const description = error instanceof Error ? error.message : String(error);
    return { kind: "unknown", description };
  }
  const { description } = error;
  const code = String(error.code);
  if (error instanceof GatewayDeclinedError) {
    return { kind: "declined", description, transactionId: error.transactionId };
  }
  // Only -7 speaks about the token; a 404 from a wrong URL must not retire a customer's card.
  if (error instanceof GatewayNotFoundError && error.code === TOKEN_NOT_FOUND_CODE) {
    return { kind: "token_unusable", code, description };
  }
  if (error.outcomeUnknown) return { kind: "unknown", description };
  if (error.throttled) return { kind: "throttled", description };
  if (error.retryable) return { kind: "not_sent", description };
  return { kind: "rejected", code, description };
}
