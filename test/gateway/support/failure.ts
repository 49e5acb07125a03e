import { GatewayError } from "../../../src/gateway/index.js";

/** Awaits a call that must fail with a GatewayError and returns the error for assertions. */
export async function failure(call: Promise<unknown>): Promise<GatewayError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("expected the call to fail with a GatewayError");
}
