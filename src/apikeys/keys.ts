import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/index.js";
import { apiKeys } from "../db/schema/index.js";
import { type ApiKeyScope, normaliseOperation } from "./permissions.js";

/**
 * Keys of merchant API clients. A key is `bk_` and 40 base62 characters (about 238 random bits).
 * It is shown once, when created; the database keeps only its SHA-256, so a stolen database dump
 * does not yield usable keys, and a presented key is found by hashing it and looking the hash up.
 * That lookup compares digests inside a unique index, never the secret itself, so response time
 * tells an attacker nothing about how much of a guess was right.
 */

export const API_KEY_PREFIX = "bk_";
const SECRET_LENGTH = 40;
/** Characters of the key kept in clear to tell keys apart in listings and logs ("bk_" + 7). */
const DISPLAY_PREFIX_LENGTH = 10;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH}}$`);
/** last_used_at is refreshed at most this often, so authenticating is not a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CreatedApiKey {
  id: string;
  name: string;
  scope: ApiKeyScope;
  allowedOperations: string[] | null;
  /** The secret itself; it cannot be recovered later. */
  key: string;
  prefix: string;
}

export interface AuthenticatedApiKey {
  id: string;
  name: string;
  prefix: string;
  /** full: every route; read_only: reads only; restricted: reads and allowedOperations (permissions.ts). */
  scope: ApiKeyScope;
  allowedOperations: string[] | null;
}

export class ApiKeyNameError extends Error {
  constructor() {
    super("an API key needs a non-empty name");
    this.name = "ApiKeyNameError";
  }
}

/** Uniform base62 characters: bytes of 248 and above are dropped so no character is likelier. */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export async function createApiKey(
  db: Db,
  input: { name: string; readOnly?: boolean; operations?: readonly string[] },
): Promise<CreatedApiKey> {
  const name = input.name.trim();
  if (name === "") throw new ApiKeyNameError();
  const operations = input.operations?.length ? [...new Set(input.operations.map(normaliseOperation))] : null;
  const scope: ApiKeyScope = operations ? "restricted" : input.readOnly ? "read_only" : "full";
  const key = `${API_KEY_PREFIX}${randomBase62(SECRET_LENGTH)}`;
  const prefix = key.slice(0, DISPLAY_PREFIX_LENGTH);
  const [row] = await db
    .insert(apiKeys)
    .values({ name, keyHash: hashApiKey(key), prefix, scope, allowedOperations: operations })
    .returning({ id: apiKeys.id, name: apiKeys.name });
  if (!row) throw new Error("API key was not created");
  return { id: row.id, name: row.name, key, prefix, scope, allowedOperations: operations };
}

/**
 * The prefix listings show (`bk_` and 7 characters) of a presented string shaped as a key, else
 * undefined: what an audit line may name of a refused key without giving away the secret.
 */
export function displayPrefixOf(presented: string): string | undefined {
  return KEY_SHAPE.test(presented) ? presented.slice(0, DISPLAY_PREFIX_LENGTH) : undefined;
}

/** The live key matching `presented`, or null for a malformed, unknown or revoked one. */
export async function authenticateApiKey(db: Db, presented: string): Promise<AuthenticatedApiKey | null> {
  // A string that cannot be a key is refused without touching the database.
  if (!KEY_SHAPE.test(presented)) return null;
  const keyHash = hashApiKey(presented);
  const [row] = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scope: apiKeys.scope,
      allowedOperations: apiKeys.allowedOperations,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  if (row.lastUsedAt === null || row.lastUsedAt.getTime() < Date.now() - LAST_USED_RESOLUTION_MS) {
    await db.update(apiKeys).set({ lastUsedAt: sql`now()` }).where(eq(apiKeys.id, row.id));
  }
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: row.scope,
    allowedOperations: row.allowedOperations,
  };
}

/**
 * Stops a key from authenticating, at once. The row stays (events name the key as their actor).
 * Returns false when there is no such key or it was already revoked.
 */
export async function revokeApiKey(db: Db, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return revoked.length > 0;
}

export interface ListedApiKey {
  id: string;
  name: string;
  prefix: string;
  scope: ApiKeyScope;
  allowedOperations: string[] | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Every key, oldest first, revoked ones included (they still name the actors of past events). */
export async function listApiKeys(db: Db): Promise<ListedApiKey[]> {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scope: apiKeys.scope,
      allowedOperations: apiKeys.allowedOperations,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}
