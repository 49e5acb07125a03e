/** Bearer values issued by the Authorize operation; they expire on the simulator clock. */
export const BEARER_LIFETIME_SECONDS = 3600;

export interface Bearer {
  value: string;
  merchantId: number;
  expiresAt: number;
}

export type BearerCheck = { merchantId: number } | { problem: string };

export class BearerStore {
  private readonly bearers = new Map<string, Bearer>();

  issue(value: string, merchantId: number, now: number): void {
    this.restore({ value, merchantId, expiresAt: now + BEARER_LIFETIME_SECONDS * 1000 });
  }

  restore(bearer: Bearer): void {
    this.bearers.set(bearer.value, bearer);
  }

  all(): Bearer[] {
    return [...this.bearers.values()];
  }

  check(value: string, now: number): BearerCheck {
    const bearer = this.bearers.get(value);
    if (!bearer) return { problem: "Unauthorized: unknown bearer token" };
    if (now >= bearer.expiresAt) return { problem: "Unauthorized: bearer token expired" };
    return { merchantId: bearer.merchantId };
  }

  clear(): void {
    this.bearers.clear();
  }
}
