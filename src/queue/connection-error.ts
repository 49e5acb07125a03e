/**
 * Rule: an error is a connection error when it says the backend (PostgreSQL or Redis) cannot be
 * reached or dropped the connection, whichever driver reports it: node-postgres, postgres.js,
 * ioredis, or Node's sockets. Such errors come in bursts, one from every pool, worker and retry,
 * and all say the same thing; other errors are each news. A wrapped error (cause, AggregateError)
 * counts by what it wraps.
 */

/** Node socket errors, and postgres.js's own codes for a connection it lost. */
const CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * SQLSTATE class 08 (connection exception), and the server going away: 57P01 admin shutdown (also
 * sent when the postmaster died), 57P02 crash shutdown, 57P03 cannot connect now.
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;

/** node-postgres and ioredis say it in words only. */
const MESSAGES = /connection terminated|not queryable|connection is closed/i;

export function isConnectionError(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (CODES.has(code) || SQLSTATE.test(code))) return true;
  if (MESSAGES.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isConnectionError(inner, depth + 1)))
    return true;
  return isConnectionError(error.cause, depth + 1);
}

export interface BriefError {
  type: string;
  message: string;
  code?: string;
  cause?: BriefError;
}

/**
 * What a log line needs of a connection error, and of what it wraps: not the driver's client
 * object it carries (node-postgres attaches the whole client, some 5 kB of JSON).
 */
export function briefError(error: unknown, depth = 0): BriefError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: error.message,
    ...(typeof code === "string" ? { code } : {}),
    ...(error.cause !== undefined && depth < 5 ? { cause: briefError(error.cause, depth + 1) } : {}),
  };
}
