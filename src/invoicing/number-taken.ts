import { GatewayRejectedError } from "../gateway/index.js";

/**
 * The gateway's reply to an invoice number it already holds: an earlier request with this number
 * created the invoice and its reply was lost. The spec has no invoice lookup, so the invoice's id
 * cannot be learnt. The wording is the simulator's; the real one is not shown.
 */
export function isNumberTaken(error: unknown): boolean {
  return (
    error instanceof GatewayRejectedError &&
    error.httpStatus === 400 &&
    /\bnumber\b/i.test(error.description) &&
    /already exists|already used|taken|duplicate|unique/i.test(error.description)
  );
}
