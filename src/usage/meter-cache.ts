import type { Db } from "../db/index.js";
import { meters } from "../db/schema/index.js";
import type { MeterAggregation } from "./meter-input.js";

/**
 * Rule: ingestion never reads meters per event or per request. Every meter is held in process
 * (the table is small) and read again after TTL_MS; a code not found is read again at most once
 * per MISS_RELOAD_MS, so a meter created by another process is seen within a second while a
 * client sending an unknown code cannot make every request read the table. A meter created or
 * archived by this process drops the cache at once.
 */

export interface CachedMeter {
  readonly id: string;
  readonly code: string;
  readonly aggregation: MeterAggregation;
  readonly archived: boolean;
}

const TTL_MS = 10_000;
const MISS_RELOAD_MS = 1_000;

interface Cache {
  byCode: Map<string, CachedMeter>;
  loadedAt: number;
  loading?: Promise<void>;
}

const caches = new WeakMap<Db, Cache>();

async function load(db: Db, cache: Cache): Promise<void> {
  cache.loading ??= (async () => {
    try {
      const rows = await db
        .select({
          id: meters.id,
          code: meters.code,
          aggregation: meters.aggregation,
          archivedAt: meters.archivedAt,
        })
        .from(meters);
      const all = rows.map((row) => ({
        id: row.id,
        code: row.code,
        aggregation: row.aggregation,
        archived: row.archivedAt !== null,
      }));
      cache.byCode = new Map(all.map((meter) => [meter.code, meter]));
      cache.loadedAt = performance.now();
    } finally {
      cache.loading = undefined;
    }
  })();
  return cache.loading;
}

function cacheOf(db: Db): Cache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { byCode: new Map(), loadedAt: Number.NEGATIVE_INFINITY };
    caches.set(db, cache);
  }
  return cache;
}

/** The meters with these codes (archived ones included, marked); unknown codes are absent. */
export async function metersByCode(db: Db, codes: Iterable<string>): Promise<Map<string, CachedMeter>> {
  const cache = cacheOf(db);
  const age = performance.now() - cache.loadedAt;
  if (age > TTL_MS) await load(db, cache);
  else if (age > MISS_RELOAD_MS && [...codes].some((code) => !cache.byCode.has(code))) await load(db, cache);
  return cache.byCode;
}

/** Drops this process's copy, after a meter was created or archived here. */
export function forgetMeters(db: Db): void {
  caches.delete(db);
}
