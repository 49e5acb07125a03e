import type { Sql } from "postgres";
import { type ApiKeyScope, type AuthenticatedApiKey, authenticateApiKey } from "../apikeys/index.js";
import type { EngineContext } from "../context/index.js";
import { hashSecret, newSecret } from "../crypto/index.js";

/**
 * Logins to the ops dashboard. An operator presents an API key once; the browser then holds a
 * random session secret (a cookie) whose SHA-256 is the row's key in ops_sessions. A session is
 * honoured only while it has not expired and its key is not revoked, checked on every request,
 * so revoking a key logs its dashboard sessions out at once. Each session has its own CSRF token.
 */

export interface OpsSession {
  apiKeyId: string;
  keyName: string;
  scope: ApiKeyScope;
  allowedOperations: string[] | null;
  csrfToken: string;
}

/** A new session for a valid key: its secret (for the cookie) and the session, or null. */
export async function openSession(
  ctx: Pick<EngineContext, "db" | "config">,
  presentedKey: string,
): Promise<{ secret: string; session: OpsSession; key: AuthenticatedApiKey } | null> {
  const key = await authenticateApiKey(ctx.db, presentedKey);
  if (!key) return null;
  const secret = newSecret();
  const csrfToken = newSecret();
  await ctx.db.$client`
    insert into ops_sessions (token_hash, api_key_id, csrf_token, expires_at)
    values (${hashSecret(secret)}, ${key.id}, ${csrfToken},
            now() + make_interval(hours => ${ctx.config.OPS_SESSION_HOURS}))`;
  // Expired sessions go when someone logs in: the table stays as small as the live logins.
  await ctx.db.$client`delete from ops_sessions where expires_at < now()`;
  return {
    secret,
    key,
    session: {
      apiKeyId: key.id,
      keyName: key.name,
      scope: key.scope,
      allowedOperations: key.allowedOperations,
      csrfToken,
    },
  };
}

interface SessionRow {
  api_key_id: string;
  name: string;
  scope: ApiKeyScope;
  allowed_operations: string[] | null;
  csrf_token: string;
}

/** The live session for a cookie's secret, or null. */
export async function findSession(sql: Sql, secret: string): Promise<OpsSession | null> {
  if (secret.length < 32 || secret.length > 64) return null;
  const [row] = await sql<SessionRow[]>`
    select s.api_key_id, k.name, k.scope::text, k.allowed_operations, s.csrf_token
    from ops_sessions s join api_keys k on k.id = s.api_key_id
    where s.token_hash = ${hashSecret(secret)} and s.expires_at > now() and k.revoked_at is null`;
  if (!row) return null;
  return {
    apiKeyId: row.api_key_id,
    keyName: row.name,
    scope: row.scope,
    allowedOperations: row.allowed_operations,
    csrfToken: row.csrf_token,
  };
}

export async function closeSession(sql: Sql, secret: string): Promise<void> {
  await sql`delete from ops_sessions where token_hash = ${hashSecret(secret)}`;
}
