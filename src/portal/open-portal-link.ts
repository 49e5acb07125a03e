import type { EngineContext } from "../context/index.js";
import { hashSecret, isSecretShaped, newSecret } from "../crypto/index.js";
import type { CustomerLanguage } from "../customers/index.js";

/**
 * openPortalLink: a link's secret becomes a portal session, once. Opening takes the customer's
 * click (a POST from the page the link shows): mail scanners fetch links with GETs before the
 * customer does, and a GET that used up a single-use link would leave the customer a dead one.
 * Rules:
 * - the link is claimed by one conditional update (unused and not expired, on the billing clock),
 *   so two clicks at once open one session and a used or expired link opens none;
 * - the session (its cookie secret hashed, a CSRF token of its own) is written in the same
 *   transaction, and lasts PORTAL_SESSION_MINUTES on the billing clock;
 * - a refusal says whether the link was known (used or expired: the customer's language is then
 *   known too) or not (tampered, or never made), and never says which of the first two.
 */

export type OpenedPortalLink =
  | { opened: true; secret: string; customerId: string; language: CustomerLanguage }
  | { opened: false; reason: "used_or_expired" | "unknown"; language: CustomerLanguage };

/** Whether a link would open, without using it (what its GET page shows). */
export async function inspectPortalLink(
  ctx: Pick<EngineContext, "db" | "clock">,
  presented: unknown,
): Promise<{ usable: true; language: CustomerLanguage } | Extract<OpenedPortalLink, { opened: false }>> {
  if (!isSecretShaped(presented)) return { opened: false, reason: "unknown", language: "en" };
  const [link] = await ctx.db.$client<{ usable: boolean; language: CustomerLanguage }[]>`
    select l.used_at is null and l.expires_at > ${ctx.clock.now().toISO()}::timestamptz as usable,
           c.language::text as language
    from portal_links l join customers c on c.id = l.customer_id
    where l.token_hash = ${hashSecret(presented)}`;
  if (!link) return { opened: false, reason: "unknown", language: "en" };
  return link.usable
    ? { usable: true, language: link.language }
    : { opened: false, reason: "used_or_expired", language: link.language };
}

export async function openPortalLink(
  ctx: Pick<EngineContext, "db" | "clock" | "config">,
  presented: unknown,
): Promise<OpenedPortalLink> {
  if (!isSecretShaped(presented)) return { opened: false, reason: "unknown", language: "en" };
  const tokenHash = hashSecret(presented);
  const now = ctx.clock.now();
  // As ISO text: this client sends parameters as text, and Postgres reads the instant back exactly.
  const at = now.toISO();
  const until = now.plus({ minutes: ctx.config.PORTAL_SESSION_MINUTES }).toISO();
  const secret = newSecret();
  const csrfToken = newSecret();
  return ctx.db.$client.begin(async (sql) => {
    const [claimed] = await sql<{ customer_id: string; language: CustomerLanguage }[]>`
      update portal_links l set used_at = ${at}::timestamptz
      from customers c
      where l.token_hash = ${tokenHash} and l.used_at is null and l.expires_at > ${at}::timestamptz
        and c.id = l.customer_id
      returning l.customer_id, c.language::text as language`;
    if (!claimed) {
      const [known] = await sql<{ language: CustomerLanguage }[]>`
        select c.language::text as language from portal_links l join customers c on c.id = l.customer_id
        where l.token_hash = ${tokenHash}`;
      return known
        ? { opened: false, reason: "used_or_expired", language: known.language }
        : { opened: false, reason: "unknown", language: "en" };
    }
    await sql`
      insert into portal_sessions (token_hash, customer_id, csrf_token, created_at, expires_at)
      values (${hashSecret(secret)}, ${claimed.customer_id}, ${csrfToken}, ${at}::timestamptz,
              ${until}::timestamptz)`;
    // Expired sessions go when a link opens: the table stays as small as the live sessions.
    await sql`delete from portal_sessions where expires_at <= ${at}::timestamptz`;
    return { opened: true, secret, customerId: claimed.customer_id, language: claimed.language };
  }) as Promise<OpenedPortalLink>;
}
