import type { Clock } from "../clock/index.js";
import { GatewayAuthenticationError } from "./errors/index.js";
import type { BearerGrant } from "./types/v1.js";

/**
 * Where bearer routes get their `Authorization: Bearer` value: a static token from configuration,
 * or the Authorize operation with the value cached until it expires or the gateway refuses it.
 */
export interface BearerSource {
  current(): Promise<string>;
  /** Drops the value if it is still `used`; reports whether a fresh one can be obtained. */
  invalidate(used: string): boolean;
}

export function staticBearer(token: string): BearerSource {
  return {
    current: async () => token,
    // A configured token cannot be renewed; a 401 with it is final.
    invalidate: () => false,
  };
}

/** Renew this long before the stated expiry, so a value does not lapse in flight. */
const EXPIRY_MARGIN_SECONDS = 30;

export class BearerCache implements BearerSource {
  private grant?: BearerGrant;
  private pending?: Promise<BearerGrant>;

  constructor(
    private readonly authorize: () => Promise<BearerGrant>,
    private readonly clock: Clock,
  ) {}

  async current(): Promise<string> {
    if (this.grant && this.fresh(this.grant)) return this.grant.bearerToken;
    // Concurrent callers share one Authorize call.
    this.pending ??= this.authorize().finally(() => {
      this.pending = undefined;
    });
    this.grant = await this.pending;
    return this.grant.bearerToken;
  }

  invalidate(used: string): boolean {
    // Another caller may already have replaced it; keep the newer value then.
    if (this.grant?.bearerToken === used) this.grant = undefined;
    return true;
  }

  private fresh(grant: BearerGrant): boolean {
    if (grant.expiresAt === undefined) return true;
    return this.clock.now().plus({ seconds: EXPIRY_MARGIN_SECONDS }) < grant.expiresAt;
  }
}

/**
 * Runs a bearer call; on a 401 it renews the value once and repeats the call once. That is safe even
 * for invoice creation: a 401 means the gateway refused the request before acting on it.
 */
export async function withBearer<T>(source: BearerSource, call: (token: string) => Promise<T>): Promise<T> {
  const token = await source.current();
  try {
    return await call(token);
  } catch (error) {
    // The code is 401 whether the status line or the error body's error_code said so.
    const expired = error instanceof GatewayAuthenticationError && error.code === 401;
    if (!expired || !source.invalidate(token)) throw error;
    return call(await source.current());
  }
}
