import type { CustomerEntitlements } from "./load-entitlements.js";

/**
 * Rule: an answer is kept per customer for ENTITLEMENTS_CACHE_SECONDS of real time, and never past
 * the billing-clock instant at which it changes by itself (a past_due grace ending). Recording an
 * event that changes a customer's entitlements drops their answer at once and again a moment later:
 * the first drop happens inside the recording transaction, so a read racing its commit may still
 * load the old rows, and a load that started before the latest drop is never kept. Changes made by
 * other processes reach this one through the TTL.
 */

const MAX_ENTRIES = 100_000;
/** Long enough for the recording transaction to have committed, in practice. */
const DROP_AGAIN_AFTER_MS = 1_000;
/** Drops older than any load still running are forgotten, once there are this many. */
const FORGET_DROPS_AFTER_MS = 60_000;
const DROPS_KEPT = 10_000;

interface Entry {
  readonly value: CustomerEntitlements;
  readonly expiresAtMs: number;
  /** Billing-clock millis at which the answer changes by itself; Infinity when none. */
  readonly changesAtMs: number;
}

const entries = new Map<string, Entry>();
const droppedAt = new Map<string, number>();
let everythingDroppedAt = Number.NEGATIVE_INFINITY;

export function cachedEntitlements(
  customerId: string,
  billingNowMs: () => number,
): CustomerEntitlements | undefined {
  const entry = entries.get(customerId);
  if (!entry) return undefined;
  if (performance.now() < entry.expiresAtMs && billingNowMs() < entry.changesAtMs) return entry.value;
  entries.delete(customerId);
  return undefined;
}

/** Keeps an answer whose load started at `loadStartedMs` (performance.now()), unless dropped since. */
export function keepEntitlements(
  value: CustomerEntitlements,
  loadStartedMs: number,
  ttlSeconds: number,
): void {
  const { customerId } = value;
  if (ttlSeconds <= 0) return;
  if (everythingDroppedAt >= loadStartedMs || (droppedAt.get(customerId) ?? -1) >= loadStartedMs) return;
  if (entries.size >= MAX_ENTRIES && !entries.has(customerId)) {
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  entries.set(customerId, {
    value,
    expiresAtMs: loadStartedMs + ttlSeconds * 1000,
    changesAtMs: value.graceEndsAt?.toMillis() ?? Number.POSITIVE_INFINITY,
  });
}

function drop(customerIds: readonly string[]): void {
  const now = performance.now();
  for (const id of customerIds) {
    entries.delete(id);
    droppedAt.set(id, now);
  }
  if (droppedAt.size > DROPS_KEPT) {
    for (const [id, at] of droppedAt) if (now - at > FORGET_DROPS_AFTER_MS) droppedAt.delete(id);
  }
}

/** Drops these customers' answers now and again a moment later (see the rule above). */
export function dropEntitlements(customerIds: Iterable<string>): void {
  const ids = [...new Set(customerIds)];
  if (ids.length === 0) return;
  drop(ids);
  setTimeout(() => drop(ids), DROP_AGAIN_AFTER_MS).unref();
}

/** Drops every answer (a feature or a plan's features changed: too many customers to name). */
export function dropAllEntitlements(): void {
  const dropAll = () => {
    entries.clear();
    everythingDroppedAt = performance.now();
  };
  dropAll();
  setTimeout(dropAll, DROP_AGAIN_AFTER_MS).unref();
}
