import type { FastifyInstance } from "fastify";
import { DOCS_PATH, sendProblem } from "../api/index.js";
import { ApiProblem } from "../problems/index.js";

/**
 * GET / says what this server offers (its areas: the API, the ops dashboard, health, metrics), so
 * someone who opens the engine's address lands somewhere useful. Any other unknown path outside /v1
 * (which has its own) is a problem+json 404 pointing at the API reference, like every other error
 * of the engine.
 */
export function registerIndexRoutes(app: FastifyInstance): void {
  app.get("/", async () => ({
    name: "billing-engine",
    api: "/v1",
    docs: DOCS_PATH,
    openapi: "/openapi.json",
    ops_dashboard: "/ops",
    health: { live: "/healthz", ready: "/readyz" },
    metrics: "/metrics",
  }));

  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      new ApiProblem(
        404,
        "route_not_found",
        "No such route",
        `nothing answers ${request.method} ${request.url.split("?")[0]}; the API is described at ${DOCS_PATH}`,
      ),
    ),
  );
}
