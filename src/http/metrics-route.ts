import type { FastifyInstance } from "fastify";
import type { EngineContext } from "../context/index.js";
import { collectProcessMetrics, metricsBearerMatches, registry } from "../metrics/index.js";
import { scrapeGauges } from "./metrics-gauges.js";

/**
 * GET /metrics in Prometheus's text format: this process's counters and histograms (src/metrics),
 * Node's process metrics, and the gauges read from Postgres and the queues at each scrape
 * (metrics-gauges.ts). With METRICS_TOKEN set it wants `Authorization: Bearer <token>` and answers
 * 401 otherwise; unset, it is open, so keep it on the private network (it shows business figures).
 * The token is never logged: requests are logged by path only, and logs redact authorization.
 */
export function registerMetricsRoutes(
  app: FastifyInstance,
  ctx: Pick<EngineContext, "config" | "db" | "queues" | "clock" | "logger">,
): void {
  collectProcessMetrics();
  const gauges = scrapeGauges(ctx);
  const token = ctx.config.METRICS_TOKEN;
  app.get("/metrics", { config: { readsNoClock: true } }, async (request, reply) => {
    if (token !== undefined && !metricsBearerMatches(request.headers.authorization, token)) {
      return reply.code(401).header("www-authenticate", "Bearer").send({ error: "unauthorized" });
    }
    // Two registries, one text: the process's own metrics, then this context's gauges.
    const [own, read] = await Promise.all([registry.metrics(), gauges.metrics()]);
    return reply.type(registry.contentType).send(`${own}${read}`);
  });
}
