import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { tokensMatch } from "../crypto/index.js";

/**
 * What the ops dashboard and the customer portal share as pages with a browser session:
 * - a session cookie, HttpOnly and SameSite=Strict, scoped to the pages' path (Secure over https);
 * - a POST from another site is refused before its body is looked at, and a POST of a signed-in
 *   browser without its session's CSRF token once the body is parsed;
 * - every answer carries the strict headers: the CSP given, no framing, no sniffing, no caching
 *   unless a route says otherwise, and Referrer-Policy same-origin (with no-referrer a browser
 *   sends "Origin: null" on our own forms).
 */
export interface SessionCookie {
  readonly name: string;
  readonly path: string;
}

export function readCookie(request: FastifyRequest, cookie: SessionCookie): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === cookie.name) return value.join("=");
  }
  return undefined;
}

export function setCookieHeader(
  request: FastifyRequest,
  cookie: SessionCookie,
  value: string,
  maxAgeSeconds: number,
): string {
  const secure = request.protocol === "https" ? "; Secure" : "";
  return `${cookie.name}=${value}; Path=${cookie.path}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

/**
 * A POST whose Origin names another host; a browser that sends no Origin is judged by the CSRF token.
 * The host is the request's as Fastify reads it: a trusted proxy's X-Forwarded-Host (TRUST_PROXY).
 */
export function crossSitePost(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (request.method !== "POST" || origin === undefined) return false;
  try {
    return new URL(origin).host !== request.host;
  } catch {
    return true;
  }
}

export function refuseCrossSite(reply: FastifyReply): FastifyReply {
  return reply.code(403).type("text/plain").send("cross-site request refused");
}

/** Refuses a signed-in browser's POST whose form does not carry the session's CSRF token. */
export function requireFormToken(
  pages: FastifyInstance,
  sessionOf: (request: FastifyRequest) => { csrfToken: string } | undefined,
): void {
  pages.addHook("preHandler", async (request, reply) => {
    const session = sessionOf(request);
    if (request.method !== "POST" || !session) return;
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (!tokensMatch(session.csrfToken, body.csrf)) {
      return reply.code(403).type("text/plain").send("the form is stale or forged: reload the page");
    }
  });
}

export function addPageSecurityHeaders(pages: FastifyInstance, csp: string): void {
  pages.addHook("onSend", async (_request, reply) => {
    reply.header("content-security-policy", csp);
    reply.header("x-frame-options", "DENY");
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "same-origin");
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
  });
}
