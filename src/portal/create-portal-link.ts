import type { DateTime } from "luxon";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { hashSecret, newSecret } from "../crypto/index.js";
import { getCustomer } from "../customers/index.js";
import { portalLinks } from "../db/schema/index.js";
import { PortalCustomerNotFoundError } from "./errors.js";

/**
 * createPortalLink: a magic link that opens the customer portal once. Rules:
 * - the secret (32 random bytes) travels only in the link's query, never in a path the server
 *   logs (PathOnlyLogController drops the query); only its SHA-256 is stored;
 * - it expires PORTAL_LINK_MINUTES after it is made, on the billing clock. Ops sessions expire on
 *   Postgres's now() (wall time); the portal deliberately uses the billing clock instead, like the
 *   new-card link, so a moved clock (demo, tests) ages links with the billing dates they show.
 *   created_at is written from the same clock, so the table's "expires after creation" check
 *   compares two instants of one clock.
 */

/** The customer's account page, once a link has opened a session. */
export const PORTAL_PATH = "/portal";
export const PORTAL_OPEN_PATH = `${PORTAL_PATH}/open`;

const portalLinkInput = z.object({
  customerId: z.uuid({ error: "customerId must be a customer id (uuid)" }),
  actor: z.string().trim().min(1).max(200),
});

export type PortalLinkInput = z.input<typeof portalLinkInput>;

export interface PortalLink {
  url: string;
  expiresAt: DateTime;
}

export async function createPortalLink(
  ctx: Pick<EngineContext, "db" | "clock" | "config" | "publicUrl">,
  input: PortalLinkInput,
): Promise<PortalLink> {
  const { customerId, actor } = portalLinkInput.parse(input);
  const customer = await getCustomer(ctx, customerId);
  if (!customer) throw new PortalCustomerNotFoundError(customerId);
  const now = ctx.clock.now();
  const expiresAt = now.plus({ minutes: ctx.config.PORTAL_LINK_MINUTES });
  const secret = newSecret();
  await ctx.db.insert(portalLinks).values({
    tokenHash: hashSecret(secret),
    customerId: customer.id,
    createdBy: actor,
    createdAt: now.toJSDate(),
    expiresAt: expiresAt.toJSDate(),
  });
  const url = new URL(`${ctx.publicUrl}${PORTAL_OPEN_PATH}`);
  url.searchParams.set("token", secret);
  return { url: url.toString(), expiresAt };
}
