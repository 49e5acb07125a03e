import type { SimReply } from "../types.js";

/**
 * The v1 error body of the spec: `{status, error: {error_code, description}}`, where error_code is
 * the HTTP status number as a string. The spec does not show the value of `status`; we send "error".
 */
export function v1Error(httpStatus: number, description: string): SimReply {
  return {
    status: httpStatus,
    body: { status: "error", error: { error_code: String(httpStatus), description } },
  };
}

export const badRequest = (description: string): SimReply => v1Error(400, description);
export const unauthorized = (description = "Unauthorized"): SimReply => v1Error(401, description);
