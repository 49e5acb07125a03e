import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { EngineContext } from "../../context/index.js";
import { readiness } from "../../health/index.js";
import { dayRange, opsReader, presetRange, RANGE_PRESETS, type RangePreset } from "../../ops/index.js";
import { findCharge } from "../../resources/index.js";
import { closeOpsSession, findOpsSession, type OpsSession } from "../../sessions/index.js";
import {
  addPageSecurityHeaders,
  crossSitePost,
  readCookie,
  refuseCrossSite,
  requireFormToken,
  type SessionCookie,
  setCookieHeader,
} from "../browser-session.js";
import { noticeText, runChargeAction, runResume } from "./actions.js";
import { canFor } from "./actions-view.js";
import { chargeDocumentLinks } from "./charge-documents.js";
import { chargeActions, chargePage } from "./charge-page.js";
import { dashboardPage } from "./dashboard-page.js";
import { registerLoginRoutes } from "./login-routes.js";
import { registerMailboxRoutes } from "./mailbox-routes.js";
import { refundConfirmPage } from "./refund-confirm-page.js";
import { snakeJson } from "./snake-json.js";

/**
 * The ops dashboard under /ops: never open. /ops/login takes an API key once and sets an
 * HttpOnly, SameSite=Strict session cookie scoped to /ops (login-routes.ts); every other page and
 * action needs a live session (sessions.ts), and every action a form carrying the session's CSRF
 * token; a refund also its confirmation page's confirm=yes (refund-confirm-page.ts). Pages are
 * served with a Content-Security-Policy that allows scripts and styles from /ops/assets only, are
 * never cached, and may not be framed.
 */

const COOKIE: SessionCookie = { name: "billing_ops", path: "/ops" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ASSETS_DIR = join(dirname(fileURLToPath(import.meta.url)), "assets");
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const dashboardQuery = z.object({
  range: z.enum(Object.keys(RANGE_PRESETS) as [RangePreset, ...RangePreset[]]).optional(),
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "expected yyyy-mm-dd")
    .optional()
    .or(z.literal("")),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "expected yyyy-mm-dd")
    .optional()
    .or(z.literal("")),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  done: z.string().max(80).optional(),
});

declare module "fastify" {
  interface FastifyRequest {
    opsSession?: OpsSession;
  }
}

/** Chart.js's browser build, beside the package's ESM entry (its exports map hides the file). */
async function chartJs(): Promise<Buffer> {
  const entry = fileURLToPath(import.meta.resolve("chart.js"));
  return readFile(join(dirname(entry), "chart.umd.min.js"));
}

const ASSETS: Record<string, { type: string; load: () => Promise<Buffer> }> = {
  "chart.umd.min.js": { type: "text/javascript; charset=utf-8", load: chartJs },
  "ops.js": { type: "text/javascript; charset=utf-8", load: () => readFile(join(ASSETS_DIR, "ops.js")) },
  "ops.css": { type: "text/css; charset=utf-8", load: () => readFile(join(ASSETS_DIR, "ops.css")) },
};

export function registerOpsRoutes(app: FastifyInstance, ctx: EngineContext): void {
  app.register(
    async (ops) => {
      const reader = opsReader(ctx);
      const assetCache = new Map<string, Buffer>();

      addPageSecurityHeaders(ops, CSP);

      ops.addHook("onRequest", async (request, reply) => {
        const path = request.url.split("?")[0] ?? "";
        if (path === "/ops/login" || path.startsWith("/ops/assets/")) return;
        const session = await findOpsSession(ctx.db.$client, readCookie(request, COOKIE));
        if (!session) return reply.code(303).header("location", "/ops/login").send();
        // A browser names the page a POST comes from; one from another site is refused before its
        // body is looked at (the CSRF token is checked once the body is parsed: requireFormToken).
        if (crossSitePost(request)) return refuseCrossSite(reply);
        request.opsSession = session;
      });

      requireFormToken(ops, (request) => request.opsSession);

      ops.get("/assets/:name", async (request, reply) => {
        const { name } = request.params as { name: string };
        const asset = ASSETS[name];
        if (!asset) return reply.code(404).type("text/plain").send("not found");
        let body = assetCache.get(name);
        if (!body) {
          body = await asset.load();
          assetCache.set(name, body);
        }
        return reply.header("cache-control", "public, max-age=3600").type(asset.type).send(body);
      });

      registerLoginRoutes(ops, ctx, COOKIE);

      ops.post("/logout", async (request, reply) => {
        await closeOpsSession(ctx.db.$client, readCookie(request, COOKIE));
        return reply
          .code(303)
          .header("set-cookie", setCookieHeader(request, COOKIE, "", 0))
          .header("location", "/ops/login")
          .send();
      });

      const snapshotFor = async (request: FastifyRequest, reply: FastifyReply) => {
        const parsed = dashboardQuery.safeParse(request.query);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          reply
            .code(400)
            .type("text/plain")
            .send(`${issue?.path.join(".")}: ${issue?.message}`);
          return null;
        }
        const query = parsed.data;
        const zone = ctx.config.BILLING_TIMEZONE;
        const now = ctx.clock.now();
        let range = presetRange(query.range ?? "30d", now, zone);
        if (!query.range && query.from) {
          const last = query.to || now.setZone(zone).toISODate() || query.from;
          const custom = dayRange(query.from, last, zone);
          if (typeof custom === "string") {
            reply.code(400).type("text/plain").send(custom);
            return null;
          }
          range = custom;
        }
        return { query, snapshot: await reader.read(range, query.currency) };
      };

      ops.get("/", async (request, reply) => {
        const [read, health] = await Promise.all([
          snapshotFor(request, reply),
          readiness(ctx, { uptimeSeconds: process.uptime() }),
        ]);
        if (!read) return reply;
        const session = request.opsSession as OpsSession;
        const page = dashboardPage({
          snapshot: read.snapshot,
          health,
          session,
          can: canFor(session),
          query: {
            preset: read.query.range,
            from: read.query.from || undefined,
            to: read.query.to || undefined,
          },
          notice: noticeText(read.query.done),
        });
        return reply.type("text/html; charset=utf-8").send(page);
      });

      // The same figures as JSON, for a script or a wallboard logged in with the same session;
      // snake_case as the rest of the API.
      ops.get("/data.json", async (request, reply) => {
        const read = await snapshotFor(request, reply);
        return read ? reply.type("application/json; charset=utf-8").send(snakeJson(read.snapshot)) : reply;
      });

      ops.get("/charges", async (request, reply) => {
        const id = String((request.query as Record<string, unknown>).id ?? "").trim();
        if (!UUID.test(id))
          return reply.code(400).type("text/plain").send("id: expected a charge id (a UUID)");
        return reply.code(303).header("location", `/ops/charges/${id.toLowerCase()}`).send();
      });

      ops.get("/charges/:id", async (request, reply) => {
        const { id } = request.params as { id: string };
        if (!UUID.test(id)) return reply.code(404).type("text/plain").send("no such charge");
        const charge = await findCharge(ctx.db, id).catch(() => null);
        if (!charge) return reply.code(404).type("text/plain").send("no such charge");
        const session = request.opsSession as OpsSession;
        const done = (request.query as Record<string, unknown>).done;
        const page = chargePage(
          charge,
          await chargeDocumentLinks(ctx, id),
          session,
          canFor(session),
          noticeText(typeof done === "string" ? done : undefined),
        );
        return reply.type("text/html; charset=utf-8").send(page);
      });

      // The Refund button's confirmation: a charge that cannot be refunded (any more) goes back to
      // its page, saying why, rather than asking.
      ops.get("/charges/:id/refund", async (request, reply) => {
        const { id } = request.params as { id: string };
        if (!UUID.test(id)) return reply.code(404).type("text/plain").send("no such charge");
        const session = request.opsSession as OpsSession;
        if (!canFor(session)("refund")) {
          return reply.code(403).type("text/plain").send("this API key may not refund charges");
        }
        const charge = await findCharge(ctx.db, id).catch(() => null);
        if (!charge) return reply.code(404).type("text/plain").send("no such charge");
        if (!chargeActions(charge).includes("refund")) {
          const why = charge.refund.status === null ? "charge_not_refundable" : "refund_exists";
          return reply.code(303).header("location", `/ops/charges/${id}?done=refused-${why}`).send();
        }
        return reply.type("text/html; charset=utf-8").send(refundConfirmPage(charge, session));
      });

      ops.post("/charges/:id/:action", async (request, reply) => {
        const { id, action } = request.params as { id: string; action: string };
        if (!UUID.test(id)) return reply.code(404).type("text/plain").send("no such charge");
        if (action !== "reconcile" && action !== "retry" && action !== "refund") {
          return reply.code(404).type("text/plain").send("no such action");
        }
        const session = request.opsSession as OpsSession;
        if (!canFor(session)(action)) {
          return reply.code(403).type("text/plain").send(`this API key may not ${action} charges`);
        }
        // Money goes back only from the confirmation page's form: anything else is asked first.
        if (action === "refund" && (request.body as Record<string, unknown> | undefined)?.confirm !== "yes") {
          return reply.code(303).header("location", `/ops/charges/${id}/refund`).send();
        }
        const done = await runChargeAction(ctx, session, action, id);
        return reply
          .code(303)
          .header("location", `/ops/charges/${id}?done=${encodeURIComponent(done)}`)
          .send();
      });

      registerMailboxRoutes(ops, ctx);

      ops.post("/breaker/resume", async (request, reply) => {
        const session = request.opsSession as OpsSession;
        if (!canFor(session)("resume")) {
          return reply.code(403).type("text/plain").send("resuming collection needs a full API key");
        }
        const done = await runResume(ctx, session);
        return reply.code(303).header("location", `/ops?done=${done}`).send();
      });
    },
    { prefix: "/ops" },
  );
}
