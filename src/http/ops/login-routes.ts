import type { FastifyInstance, FastifyReply } from "fastify";
import { displayPrefixOf } from "../../apikeys/index.js";
import type { EngineContext } from "../../context/index.js";
import { openOpsSession } from "../../sessions/index.js";
import { crossSitePost, refuseCrossSite, type SessionCookie, setCookieHeader } from "../browser-session.js";
import { loginThrottle } from "../login-throttle.js";
import { loginPage } from "./login-page.js";

/**
 * GET and POST /ops/login: an API key, posted once, becomes a session cookie. The POST
 * - is refused (403) when another site's page sends it (login CSRF: a forged login would put the
 *   victim's browser in the attacker's session), as every other ops POST is;
 * - is throttled per client address (login-throttle.ts): wrong keys lock the address out with a
 *   429 and Retry-After, and each one is an audit line naming the address and, for a string
 *   shaped as a key, its listing prefix; never the key.
 */
export function registerLoginRoutes(ops: FastifyInstance, ctx: EngineContext, cookie: SessionCookie): void {
  const throttle = loginThrottle(ops, "ops_login", ctx.config);

  const tooMany = (reply: FastifyReply, seconds: number) =>
    reply
      .code(429)
      .header("retry-after", String(seconds))
      .type("text/html; charset=utf-8")
      .send(loginPage(`Too many failed logins from your address: try again in ${seconds} seconds.`));

  ops.get("/login", async (_request, reply) => reply.type("text/html; charset=utf-8").send(loginPage()));

  ops.post("/login", async (request, reply) => {
    if (crossSitePost(request)) return refuseCrossSite(reply);
    const locked = await throttle.lockedFor(request);
    if (locked > 0) return tooMany(reply, locked);
    const key = (request.body as Record<string, unknown> | undefined)?.key;
    const presented = typeof key === "string" ? key.trim() : "";
    const opened = presented === "" ? null : await openOpsSession(ctx, presented);
    if (!opened) {
      const lockout = await throttle.failed(
        request,
        { keyPrefix: displayPrefixOf(presented) },
        "ops dashboard login refused: the API key is not valid",
      );
      if (lockout > 0) return tooMany(reply, lockout);
      return reply.code(401).type("text/html; charset=utf-8").send(loginPage("That API key is not valid."));
    }
    request.log.info({ apiKeyId: opened.key.id }, "ops dashboard login");
    return reply
      .code(303)
      .header(
        "set-cookie",
        setCookieHeader(request, cookie, opened.secret, ctx.config.OPS_SESSION_HOURS * 3600),
      )
      .header("location", "/ops")
      .send();
  });
}
