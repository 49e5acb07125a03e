import type { Sql } from "postgres";
import { type ApiKeyScope, type AuthenticatedApiKey, authenticateApiKey } from "../apikeys/index.js";
import type { EngineContext } from "../context/index.js";
import { hashSecret, isSecretShaped, newSecret } from "../crypto/index.js";
import type { CustomerLanguage } from "../customers/index.js";

/**
 * The browser sessions of the ops dashboard and the customer portal. The browser holds a random
 * secret (a cookie) whose SHA-256 is the row's key; each session has a CSRF token of its own. One
 * guard for both: a presented value not shaped like our secrets (crypto/session-secrets.ts) is
 * never looked up, and closing it deletes nothing.
 * - An ops session is opened by presenting an API key, and honoured while it has not expired (on
 *   the database's clock) and its key is not revoked, checked on every request, so revoking a key
 *   logs its dashboard sessions out at once.
 * - A portal session is opened by a portal link (portal/open-portal-link.ts, with the link's use in
 *   one transaction), honoured before it expires on the billing clock (create-portal-link.ts says
 *   why that clock), and names the one customer whose subscriptions it may see and change.
 */

/** The row key of a presented secret, or null when it is not shaped like one. */
const keyOf = (secret: string | undefined): string | null =>
  isSecretShaped(secret) ? hashSecret(secret) : null;

export interface OpsSession {
  apiKeyId: string;
  keyName: string;
  scope: ApiKeyScope;
  allowedOperations: string[] | null;
  csrfToken: string;
}

/** A new ops session for a valid key: its secret (for the cookie) and the session, or null. */
export async function openOpsSession(
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

/** The live ops session for a cookie's secret, or null. */
export async function findOpsSession(sql: Sql, secret: string | undefined): Promise<OpsSession | null> {
  const key = keyOf(secret);
  if (key === null) return null;
  const [row] = await sql<
    {
      api_key_id: string;
      name: string;
      scope: ApiKeyScope;
      allowed_operations: string[] | null;
      csrf_token: string;
    }[]
  >`
    select s.api_key_id, k.name, k.scope::text, k.allowed_operations, s.csrf_token
    from ops_sessions s join api_keys k on k.id = s.api_key_id
    where s.token_hash = ${key} and s.expires_at > now() and k.revoked_at is null`;
  if (!row) return null;
  return {
    apiKeyId: row.api_key_id,
    keyName: row.name,
    scope: row.scope,
    allowedOperations: row.allowed_operations,
    csrfToken: row.csrf_token,
  };
}

export async function closeOpsSession(sql: Sql, secret: string | undefined): Promise<void> {
  const key = keyOf(secret);
  if (key !== null) await sql`delete from ops_sessions where token_hash = ${key}`;
}

export interface PortalSession {
  customerId: string;
  name: string | null;
  email: string;
  language: CustomerLanguage;
  csrfToken: string;
}

/** The live portal session for a cookie's secret, or null. */
export async function findPortalSession(
  ctx: Pick<EngineContext, "db" | "clock">,
  secret: string | undefined,
): Promise<PortalSession | null> {
  const key = keyOf(secret);
  if (key === null) return null;
  const [row] = await ctx.db.$client<
    {
      customer_id: string;
      name: string | null;
      email: string;
      language: CustomerLanguage;
      csrf_token: string;
    }[]
  >`
    select s.customer_id, c.name, c.email, c.language::text as language, s.csrf_token
    from portal_sessions s join customers c on c.id = s.customer_id
    where s.token_hash = ${key} and s.expires_at > ${ctx.clock.now().toISO()}::timestamptz`;
  if (!row) return null;
  return {
    customerId: row.customer_id,
    name: row.name,
    email: row.email,
    language: row.language,
    csrfToken: row.csrf_token,
  };
}

export async function closePortalSession(sql: Sql, secret: string | undefined): Promise<void> {
  const key = keyOf(secret);
  if (key !== null) await sql`delete from portal_sessions where token_hash = ${key}`;
}
