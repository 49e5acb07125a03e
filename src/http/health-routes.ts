import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { breakerState } from "../breaker/index.js";
import type { EngineContext } from "../context/index.js";

/**
 * GET /healthz: live, ok when Postgres answers (Postgres is the source of truth), 503 otherwise.
 * GET /readyz: ready to collect: Postgres answers and the gateway circuit breaker is closed; a 503
 * names every failing check, so a paused engine shows up in every monitor, not only in the log.
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: Pick<EngineContext, "db">): void {
  app.get("/healthz", async (request, reply) => {
    try {
      await ctx.db.execute(sql`select 1`);
      return { status: "ok" };
    } catch (error) {
      request.log.error({ err: error }, "health check: database unreachable");
      return reply.code(503).send({ status: "unavailable" });
    }
  });

  app.get("/readyz", async (request, reply) => {
    let breaker: Awaited<ReturnType<typeof breakerState>>;
    try {
      breaker = await breakerState(ctx.db.$client);
    } catch (error) {
      request.log.error({ err: error }, "readiness check: database unreachable");
      return reply.code(503).send({ status: "unavailable", checks: { database: "unreachable" } });
    }
    const checks = {
      database: "ok",
      gateway_breaker: breaker.open
        ? `open since ${breaker.openedAt?.toUTC().toISO()}: ${breaker.reason}; resume with \`billing breaker resume\``
        : "closed",
    };
    if (breaker.open) return reply.code(503).send({ status: "paused", checks });
    return { status: "ready", checks };
  });
}
