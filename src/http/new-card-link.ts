import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { DateTime } from "luxon";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import type { TokenVault } from "../crypto/index.js";
import { startReEnrollment } from "../enrollment/index.js";
import { CUSTOMER_PAGE_HEADERS } from "./customer-page.js";
import { resultPage } from "./result-page.js";

/**
 * A link we can send a customer (e-mail, the payment_method.expiring webhook) that opens a fresh
 * checkout for a new card on their subscription. The link is signed, so nobody can open checkouts
 * for subscriptions they were not sent, and it expires. The signature is the vault's keyed HMAC
 * over the subscription id and the expiry, so no extra secret has to be configured.
 *
 * The expiry is read strictly (the digits we wrote, nothing else: no sign, leading zero or
 * decimals), so one signature has one spelling. Opening a link again while the checkout it opened
 * is still pending (within CHECKOUT_REUSE_MINUTES) goes back to that checkout instead of opening
 * another one at the gateway; once that checkout has failed or expired, a new one is opened.
 */
export const NEW_CARD_PATH = "/subscriptions/:id/new-card";

const LINK_LIFETIME_DAYS = 30;
const CHECKOUT_REUSE_MINUTES = 30;

function signature(vault: Pick<TokenVault, "fingerprint">, subscriptionId: string, expires: number): string {
  return vault.fingerprint(`new-card-link:${subscriptionId}:${expires}`);
}

export function newCardLink(
  ctx: Pick<EngineContext, "vault" | "publicUrl">,
  subscriptionId: string,
  now: DateTime,
): string {
  const expires = Math.floor(now.plus({ days: LINK_LIFETIME_DAYS }).toSeconds());
  const url = new URL(`${ctx.publicUrl}${NEW_CARD_PATH.replace(":id", subscriptionId)}`);
  url.searchParams.set("expires", String(expires));
  url.searchParams.set("sig", signature(ctx.vault, subscriptionId, expires));
  return url.toString();
}

const linkParams = z.object({ id: z.uuid() });
const linkQuery = z.object({
  expires: z
    .string()
    .regex(/^[1-9][0-9]{0,11}$/)
    .transform(Number),
  sig: z.string().regex(/^[0-9a-f]{64}$/),
});

/** The checkout a link opened a little while ago and nobody finished yet, if any. */
async function openCheckout(ctx: EngineContext, subscriptionId: string): Promise<string | null> {
  const [row] = await ctx.db.$client<{ checkout_url: string }[]>`
    select checkout_url from enrollments
    where subscription_id = ${subscriptionId}::uuid and status = 'pending' and checkout_url is not null
      and created_at > now() - make_interval(mins => ${CHECKOUT_REUSE_MINUTES})
    limit 1`;
  return row?.checkout_url ?? null;
}

export function registerNewCardRoutes(app: FastifyInstance, ctx: EngineContext): void {
  app.get(NEW_CARD_PATH, async (request, reply) => {
    const params = linkParams.safeParse(request.params);
    const query = linkQuery.safeParse(request.query);
    const valid =
      params.success &&
      query.success &&
      query.data.expires > ctx.clock.now().toSeconds() &&
      timingSafeEqual(
        Buffer.from(signature(ctx.vault, params.data.id, query.data.expires)),
        Buffer.from(query.data.sig),
      );
    if (!valid || !params.success) {
      request.log.warn({ path: request.routeOptions.url }, "refused a new-card link");
      return reply.code(404).headers(CUSTOMER_PAGE_HEADERS).send(resultPage("unconfirmed", "en"));
    }
    const open = await openCheckout(ctx, params.data.id);
    if (open) return reply.redirect(open, 303);
    const { checkoutUrl } = await startReEnrollment(ctx, {
      subscriptionId: params.data.id,
      actor: "customer:new-card-link",
      reason: "customer opened a new-card link",
    });
    return reply.redirect(checkoutUrl, 303);
  });
}
