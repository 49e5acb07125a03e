import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { EngineContext } from "../context/index.js";

/** GET /healthz: ok when Postgres answers, 503 otherwise (Postgres is the source of truth). */
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
}
