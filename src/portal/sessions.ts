import type { Sql } from "postgres";
import type { EngineContext } from "../context/index.js";
import { hashSecret, isSecretShaped } from "../crypto/index.js";
import type { CustomerLanguage } from "../customers/index.js";

/**
 * A customer's portal session, found from its cookie's secret on every request. It is honoured
 * only before it expires on the billing clock (see create-portal-link.ts for why that clock), and
 * it names the one customer whose subscriptions it may see and change.
 */

export interface PortalSession {
  customerId: string;
  name: string | null;
  email: string;
  language: CustomerLanguage;
  csrfToken: string;
}

export async function findPortalSession(
  ctx: Pick<EngineContext, "db" | "clock">,
  secret: string | undefined,
): Promise<PortalSession | null> {
  if (!isSecretShaped(secret)) return null;
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
    where s.token_hash = ${hashSecret(secret)} and s.expires_at > ${ctx.clock.now().toISO()}::timestamptz`;
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
  if (isSecretShaped(secret)) await sql`delete from portal_sessions where token_hash = ${hashSecret(secret)}`;
}
