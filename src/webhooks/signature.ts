import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Webhook signatures. Every delivery carries
 *
 *   Billing-Signature: t=1735689600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
 *
 * - t:  when the request was signed, in unix seconds of the wall clock (not the billing clock:
 *       receivers compare it with their own clock);
 * - v1: lower-case hex of HMAC-SHA256, keyed with the endpoint's secret (the whole `whsec_…`
 *       string, UTF-8), over `${t}.${rawBody}`: the timestamp, a dot, and the exact body bytes.
 *
 * To verify, a receiver recomputes v1 over the body exactly as received (before parsing the JSON),
 * compares in constant time, and refuses a t further than the tolerance from its clock, so a
 * captured request cannot be replayed later. Several v1 entries may appear (e.g. while a secret
 * is being rotated); any match passes. Unknown keys are ignored, so a v2 scheme can be added
 * without breaking receivers. `verifyWebhookSignature` does all of this.
 */
export const SIGNATURE_HEADER = "Billing-Signature";
export const SIGNATURE_SCHEME = "v1";
export const DEFAULT_TOLERANCE_SECONDS = 300;

const HEX_DIGEST = /^[0-9a-f]{64}$/i;
const UNIX_SECONDS = /^\d{1,12}$/;

export type RawBody = string | Uint8Array;

function digest(secret: string, timestamp: number, rawBody: RawBody): Buffer {
  if (secret === "") throw new TypeError("a webhook secret must not be empty");
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest();
}

export interface SignInput {
  secret: string;
  rawBody: RawBody;
  /** Unix seconds. */
  timestamp: number;
}

/** The Billing-Signature header value for this body. */
export function signWebhook({ secret, rawBody, timestamp }: SignInput): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`timestamp must be whole unix seconds, got ${timestamp}`);
  }
  return `t=${timestamp},${SIGNATURE_SCHEME}=${digest(secret, timestamp, rawBody).toString("hex")}`;
}

export interface VerifyInput {
  secret: string;
  /** The Billing-Signature header as received; a repeated header (an array) is malformed. */
  header: string | readonly string[] | null | undefined;
  rawBody: RawBody;
  toleranceSeconds?: number;
  /** The receiver's clock; defaults to the current time. */
  now?: Date;
}

export type VerifyFailure = "malformed_header" | "bad_signature" | "stale_timestamp";

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailure };

interface ParsedHeader {
  timestamp: number;
  signatures: Buffer[];
}

function parseHeader(header: VerifyInput["header"]): ParsedHeader | null {
  if (typeof header !== "string") return null;
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(",")) {
    const separator = part.indexOf("=");
    if (separator <= 0) return null;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === "t") {
      if (timestamp !== undefined || !UNIX_SECONDS.test(value)) return null;
      timestamp = Number(value);
    } else if (key === SIGNATURE_SCHEME) {
      if (!HEX_DIGEST.test(value)) return null;
      signatures.push(Buffer.from(value, "hex"));
    }
  }
  if (timestamp === undefined || signatures.length === 0) return null;
  return { timestamp, signatures };
}

/**
 * Checks a received webhook. The signature is checked before the age, so "stale_timestamp" means
 * an authentic request that arrived too late (or a replay), never a forgery.
 */
export function verifyWebhookSignature({
  secret,
  header,
  rawBody,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  now = new Date(),
}: VerifyInput): VerifyResult {
  const parsed = parseHeader(header);
  if (!parsed) return { ok: false, reason: "malformed_header" };
  const expected = digest(secret, parsed.timestamp, rawBody);
  // Every candidate is compared, in constant time, so timing reveals neither which one matched
  // nor how much of a guess was right.
  let matched = false;
  for (const candidate of parsed.signatures) {
    if (timingSafeEqual(candidate, expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: "bad_signature" };
  const ageSeconds = Math.abs(now.getTime() / 1000 - parsed.timestamp);
  if (ageSeconds > toleranceSeconds) return { ok: false, reason: "stale_timestamp" };
  return { ok: true, timestamp: parsed.timestamp };
}
