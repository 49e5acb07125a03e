import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EngineContext } from "../../context/index.js";
import {
  customerAccount,
  inspectPortalLink,
  type OwnSubscription,
  openPortalLink,
  ownSubscription,
  PORTAL_PATH,
} from "../../portal/index.js";
import { closePortalSession, findPortalSession, type PortalSession } from "../../sessions/index.js";
import {
  addPageSecurityHeaders,
  crossSitePost,
  readCookie,
  refuseCrossSite,
  requireFormToken,
  type SessionCookie,
  setCookieHeader,
} from "../browser-session.js";
import { loginThrottle } from "../login-throttle.js";
import { accountPage } from "./account-page.js";
import { type ActionOutcome, cancelAtPeriodEnd, resumePendingCancellation, updateCard } from "./actions.js";
import { confirmCancelPage } from "./confirm-page.js";
import { isLanguage, isNotice, type Language, TEXT } from "./i18n.js";
import { messagePage, openLinkPage } from "./layout.js";
import { changePlanAction, changeSeatsAction, planChoicesFor } from "./plan-change.js";

/**
 * The customer portal under /portal, built as the ops dashboard is (src/http/ops/routes.ts):
 * - GET /portal/open?token=… shows a button (a mail scanner's GET uses nothing up); its POST, from
 *   that page, opens the magic link once (src/portal), sets an HttpOnly, SameSite=Strict session
 *   cookie scoped to /portal and sends the browser on to /portal with a 303; a used, expired or
 *   unknown link gets a page saying to ask for a new one; a secret that names no link is a guess,
 *   throttled per client address (login-throttle.ts: a 429 with Retry-After once locked out);
 * - every other page and action needs a live session; every action is a POST whose Origin, when the
 *   browser sends one, is this host, and whose form carries the session's CSRF token; each acts only
 *   on a subscription of the session's customer (any other id is answered 404);
 * - pages allow scripts and styles from /portal/assets only (there is no script), are never
 *   cached, never framed, and send no referrer off the site.
 */

const COOKIE: SessionCookie = { name: "billing_portal", path: PORTAL_PATH };
const CSS = join(dirname(fileURLToPath(import.meta.url)), "assets", "portal.css");
/**
 * form-action is enforced on a form's redirects too: the card form ends at the gateway's hosted
 * checkout, whose host the gateway chooses (the interface does not name it), so https origins and
 * the configured gateway's own may receive it. Every form on these pages is ours (all values are
 * escaped), so this widens nothing an attacker controls.
 */
function contentSecurityPolicy(ctx: EngineContext): string {
  const gateways = [ctx.config.GATEWAY_BASE_URL, ctx.config.GATEWAY_LEGACY_URL]
    .filter((url): url is string => url !== undefined)
    .map((url) => new URL(url).origin);
  const formAction = ["'self'", "https:", ...new Set(gateways)].join(" ");
  return `default-src 'none'; style-src 'self'; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}
const HTML = "text/html; charset=utf-8";

declare module "fastify" {
  interface FastifyRequest {
    portalSession?: PortalSession;
  }
}

/** The language asked for (?lang= or a form's lang), else the customer's own, else English. */
function languageOf(request: FastifyRequest, fallback: Language = "en"): Language {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (isLanguage(query.lang)) return query.lang;
  if (isLanguage(body.lang)) return body.lang;
  return fallback;
}

export function registerPortalRoutes(app: FastifyInstance, ctx: EngineContext): void {
  app.register(
    async (portal) => {
      let css: Buffer | undefined;
      const csp = contentSecurityPolicy(ctx);
      const zone = ctx.config.BILLING_TIMEZONE;
      const guesses = loginThrottle(portal, "portal_link", ctx.config);

      addPageSecurityHeaders(portal, csp);

      portal.addHook("onRequest", async (request, reply) => {
        const path = request.url.split("?")[0] ?? "";
        if (path === "/portal/open" || path.startsWith("/portal/assets/")) return;
        const session = await findPortalSession(ctx, readCookie(request, COOKIE));
        if (!session) {
          const language = languageOf(request);
          const text = TEXT[language];
          return reply
            .code(401)
            .type(HTML)
            .send(messagePage(language, text, text.sessionTitle, text.sessionBody));
        }
        // A POST from another site is refused before its body is read (the CSRF token comes next).
        if (crossSitePost(request)) return refuseCrossSite(reply);
        request.portalSession = session;
      });

      requireFormToken(portal, (request) => request.portalSession);

      portal.get("/assets/portal.css", async (_request, reply) => {
        css ??= await readFile(CSS);
        return reply
          .header("cache-control", "public, max-age=3600")
          .type("text/css; charset=utf-8")
          .send(css);
      });

      const refuseLink = (reply: FastifyReply, refused: { reason: string; language: Language }) => {
        const text = TEXT[refused.language];
        return reply
          .code(refused.reason === "used_or_expired" ? 410 : 403)
          .type(HTML)
          .send(messagePage(refused.language, text, text.linkTitle, text.linkBody));
      };

      const tooMany = (request: FastifyRequest, reply: FastifyReply, seconds: number) => {
        const language = languageOf(request);
        const text = TEXT[language];
        const body = text.tooManyBody.replace("{seconds}", String(seconds));
        return reply
          .code(429)
          .header("retry-after", String(seconds))
          .type(HTML)
          .send(messagePage(language, text, text.tooManyTitle, body));
      };

      /**
       * A refused link: a secret that names no link counts as a guess (a used or expired link is the
       * customer's own); the answer is the refusal, or a 429 once the guesses lock the address out.
       */
      const refused = async (
        request: FastifyRequest,
        reply: FastifyReply,
        link: { reason: string; language: Language },
      ) => {
        if (link.reason !== "unknown") {
          request.log.warn({ reason: link.reason, ip: request.ip }, "refused a portal link");
          return refuseLink(reply, link);
        }
        const lockout = await guesses.failed(request, { reason: link.reason }, "refused a portal link");
        return lockout > 0 ? tooMany(request, reply, lockout) : refuseLink(reply, link);
      };

      // The link shows a button; only its POST uses the link up (a mail scanner's GET does not).
      // Both look a secret up, so both are throttled.
      portal.get("/open", async (request, reply) => {
        const locked = await guesses.lockedFor(request);
        if (locked > 0) return tooMany(request, reply, locked);
        const token = (request.query as Record<string, unknown>).token;
        const link = await inspectPortalLink(ctx, token);
        if (!("usable" in link)) return refused(request, reply, link);
        return reply.type(HTML).send(openLinkPage(link.language, TEXT[link.language], token as string));
      });

      // Posted from the link's own page, so the cookie set here is sent on the redirect (SameSite=Strict).
      portal.post("/open", async (request, reply) => {
        if (crossSitePost(request)) return refuseCrossSite(reply);
        const locked = await guesses.lockedFor(request);
        if (locked > 0) return tooMany(request, reply, locked);
        const opened = await openPortalLink(ctx, ((request.body ?? {}) as Record<string, unknown>).token);
        if (!opened.opened) return refused(request, reply, opened);
        request.log.info({ customerId: opened.customerId }, "portal link opened");
        return reply
          .code(303)
          .header(
            "set-cookie",
            setCookieHeader(request, COOKIE, opened.secret, ctx.config.PORTAL_SESSION_MINUTES * 60),
          )
          .header("location", `/portal?lang=${opened.language}`)
          .send();
      });

      portal.post("/logout", async (request, reply) => {
        await closePortalSession(ctx.db.$client, readCookie(request, COOKIE));
        const language = languageOf(request, request.portalSession?.language);
        return reply
          .code(303)
          .header("set-cookie", setCookieHeader(request, COOKIE, "", 0))
          .header("location", `/portal?lang=${language}`)
          .send();
      });

      portal.get("/", async (request, reply) => {
        const session = request.portalSession as PortalSession;
        const language = languageOf(request, session.language);
        const account = await customerAccount(ctx, session.customerId);
        const done = (request.query as Record<string, unknown>).done;
        const page = accountPage({
          session,
          account,
          language,
          text: TEXT[language],
          zone,
          notice: isNotice(done) ? done : undefined,
          planChoices: ctx.config.PORTAL_PLAN_CHANGES ? await planChoicesFor(ctx, account) : undefined,
          seatChanges: ctx.config.PORTAL_SEAT_CHANGES,
        });
        return reply.type(HTML).send(page);
      });

      /** The session customer's subscription named in the path, or a 404 page (and null). */
      const own = async (request: FastifyRequest, reply: FastifyReply): Promise<OwnSubscription | null> => {
        const session = request.portalSession as PortalSession;
        const { id } = request.params as { id: string };
        const found = await ownSubscription(ctx, session.customerId, id);
        if (!found) {
          const language = languageOf(request, session.language);
          const text = TEXT[language];
          reply
            .code(404)
            .type(HTML)
            .send(messagePage(language, text, text.notices.refused, ""));
        }
        return found;
      };

      const answer = (request: FastifyRequest, reply: FastifyReply, outcome: ActionOutcome) => {
        if ("checkoutUrl" in outcome) return reply.redirect(outcome.checkoutUrl, 303);
        const language = languageOf(request, (request.portalSession as PortalSession).language);
        return reply.redirect(`/portal?lang=${language}&done=${outcome.notice}`, 303);
      };

      portal.get("/subscriptions/:id/cancel", async (request, reply) => {
        const subscription = await own(request, reply);
        if (!subscription) return reply;
        const session = request.portalSession as PortalSession;
        const language = languageOf(request, session.language);
        return reply
          .type(HTML)
          .send(confirmCancelPage({ session, subscription, language, text: TEXT[language], zone }));
      });

      portal.post("/subscriptions/:id/cancel", async (request, reply) => {
        const sub = await own(request, reply);
        if (!sub) return reply;
        // Without the confirmation page's confirm=yes, nothing is canceled: the customer is asked.
        if ((request.body as Record<string, unknown>).confirm !== "yes") {
          const language = languageOf(request, (request.portalSession as PortalSession).language);
          return reply.redirect(`/portal/subscriptions/${sub.id}/cancel?lang=${language}`, 303);
        }
        return answer(request, reply, await cancelAtPeriodEnd(ctx, sub));
      });

      portal.post("/subscriptions/:id/resume", async (request, reply) => {
        const sub = await own(request, reply);
        if (!sub) return reply;
        return answer(request, reply, await resumePendingCancellation(ctx, sub));
      });

      portal.post("/subscriptions/:id/card", async (request, reply) => {
        const sub = await own(request, reply);
        if (!sub) return reply;
        return answer(request, reply, await updateCard(ctx, sub));
      });

      // Only when the merchant lets customers change plan; otherwise there is no such route (404).
      if (ctx.config.PORTAL_PLAN_CHANGES) {
        portal.post("/subscriptions/:id/plan", async (request, reply) => {
          const sub = await own(request, reply);
          if (!sub) return reply;
          const planId = (request.body as Record<string, unknown>).plan_id;
          return answer(request, reply, await changePlanAction(ctx, sub, planId));
        });
      }
      if (ctx.config.PORTAL_SEAT_CHANGES) {
        portal.post("/subscriptions/:id/seats", async (request, reply) => {
          const sub = await own(request, reply);
          if (!sub) return reply;
          const quantity = (request.body as Record<string, unknown>).quantity;
          return answer(request, reply, await changeSeatsAction(ctx, sub, quantity));
        });
      }
    },
    { prefix: PORTAL_PATH },
  );
}
