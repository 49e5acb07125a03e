import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether an Authorization header is `Bearer <token>` for METRICS_TOKEN. Compared as SHA-256
 * digests in constant time, so neither the token's content nor its length leaks through timing.
 */
export function metricsBearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "")?.[1];
  if (presented === undefined) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(token));
}
