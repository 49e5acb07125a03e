import { redact, redactText } from "../../logger/index.js";
import type { GatewayOperation } from "../operations.js";

/** What every gateway failure knows; subclasses fix the flags that their kind implies. */
export interface GatewayErrorInit {
  operation: GatewayOperation;
  /** Legacy numeric result, v1 error_code (as a number when numeric), HTTP status, or a local code. */
  code: number | string;
  description: string;
  /** The gateway's reply (parsed JSON or text); stored redacted so it is safe to log. */
  raw?: unknown;
  httpStatus?: number;
  cause?: unknown;
}

export interface GatewayErrorFlags {
  /** The same request might succeed later (transport trouble), as opposed to a definite answer. */
  retryable: boolean;
  /** The gateway may have acted (money may have moved): reconcile before doing anything else. */
  outcomeUnknown: boolean;
}

/**
 * Base of every failure the gateway client throws. Callers branch on the subclass or on the two
 * flags; `raw` keeps the reply for support tickets with secrets already removed.
 */
export class GatewayError extends Error {
  override name = "GatewayError";
  readonly operation: GatewayOperation;
  readonly code: number | string;
  readonly description: string;
  readonly raw: unknown;
  readonly httpStatus?: number;
  readonly retryable: boolean;
  readonly outcomeUnknown: boolean;

  constructor(init: GatewayErrorInit, flags: GatewayErrorFlags) {
    super(
      `${init.operation} failed: ${redactText(init.description)} (code ${init.code})`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.operation = init.operation;
    this.code = init.code;
    this.description = redactText(init.description);
    this.raw = redact(init.raw);
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    this.retryable = flags.retryable;
    this.outcomeUnknown = flags.outcomeUnknown;
  }

  /** The gateway answered 429 (too many requests): refused for now, and asking us to slow down. */
  get throttled(): boolean {
    return this.httpStatus === 429;
  }
}
