import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Secrets handed to browsers (the ops dashboard's and the customer portal's session cookies, portal
 * links): 32 random bytes in base64url (43 characters); only their SHA-256 is stored, so a copy of
 * the tables opens nothing. A CSRF token is the same kind of secret, kept as is (it is worthless
 * without the cookie), and compared in constant time.
 */

const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newSecret = (): string => randomBytes(32).toString("base64url");

export const hashSecret = (secret: string): string =>
  createHash("sha256").update(secret, "utf8").digest("hex");

/** Whether a presented value is shaped like one of our secrets (anything else is not looked up). */
export const isSecretShaped = (value: unknown): value is string =>
  typeof value === "string" && SECRET_PATTERN.test(value);

/** Whether a form's token is the session's, compared in constant time. */
export function tokensMatch(expected: string, presented: unknown): boolean {
  if (typeof presented !== "string") return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
