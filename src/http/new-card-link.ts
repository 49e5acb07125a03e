import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { DateTime } from "luxon";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import type { TokenVault } from "../crypto/index.js";
import { startReEnrollment } from "../enrollment/index.js";
import { RESULT_PAGE_HEADERS, resultPage } from "./result-page.js";

/**
 * A link we can send a customer (e-mail, the payment_method.expiring webhook) that opens a fresh
 * checkout for a new card on their subscription. The link is signed, so nobody can open checkouts
 * for subscriptions they were not sent, and it expires. The signature is the vault's keyed HMAC
 * over the subscription id and the expiry, so no extra secret has to be configured.
 */
export const NEW_CARD_PATH = "/subscriptions/:id/new-card";

const LINK_LIFETIME_DAYS = 30;

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
const linkQuery = z.object({ expires: z.coerce.number().int(), sig: z.string().regex(/^[0-9a-f]{64}$/) });

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
      return reply.code(404).headers(RESULT_PAGE_HEADERS).send(resultPage("unconfirmed", "en"));
    }
    const { checkoutUrl } = await startReEnrollment(ctx, {
      subscriptionId: params.data.id,
      actor: "customer:new-card-link",
      reason: "customer opened a new-card link",
    });
    return reply.redirect(checkoutUrl, 303);
  });
}
