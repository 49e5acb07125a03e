import { z } from "zod";
import { gatewayErrorFrom } from "./errors/index.js";
import type { GatewayOperation } from "./operations.js";

/**
 * Builds a request body from typed input and checks it against its wire schema. Input the gateway
 * would refuse (or that cannot be expressed exactly, such as a fourth decimal in QAR) becomes a
 * GatewayRejectedError with code invalid_request, and nothing is sent.
 */
export function buildRequest<S extends z.ZodType>(
  operation: GatewayOperation,
  schema: S,
  build: () => z.input<S>,
): z.output<S> {
  let wire: z.input<S>;
  try {
    wire = build();
  } catch (error) {
    // Money and date conversions signal bad input with RangeError (MoneyFormatError included).
    if (!(error instanceof RangeError)) throw error;
    throw gatewayErrorFrom({ kind: "invalid-request", operation, description: error.message });
  }
  const parsed = schema.safeParse(wire);
  if (!parsed.success) {
    throw gatewayErrorFrom({
      kind: "invalid-request",
      operation,
      description: z.prettifyError(parsed.error),
    });
  }
  return parsed.data;
}

/** Joins a configured base URL (which may carry a path prefix) and an operation path. */
export function endpoint(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`);
}
