import type { FastifyInstance } from "fastify";
import type { EngineContext } from "../context/index.js";
import { type ReadinessStatus, readiness } from "../health/index.js";

/**
 * GET /healthz: liveness. 200 `{status: "ok", uptime_seconds}` whenever the process can answer,
 * without touching any dependency: an orchestrator restarts a process whose liveness fails, and
 * restarting healthy processes cures no database or gateway outage (it only adds boot storms and
 * drops jobs in hand). Dependencies are readiness's business.
 * GET /readyz: readiness to collect (src/health): 200 `{status: "ready", checks}`, else 503
 * `{status: "not_ready" | "paused", checks}` with every check's status and reason, so a paused or
 * stalled engine shows in every monitor, not only in the log. It describes the engine as a whole
 * (the tick and the breaker are shared by every process), for monitoring and start-up gating.
 * Neither route reads the shared billing clock (they declare `readsNoClock`, which server.ts's
 * per-request refresh honours): both must answer while the database does not. Under load shedding
 * (load-shedding.ts) liveness still answers (`neverShed`): a busy process is not a dead one, and
 * restarting it would only move its load; readiness sheds, which takes it out of a balancer.
 */

export interface HealthRouteOptions {
  /** How long this process has been up, for the tick's start-up grace; default process.uptime. */
  uptimeSeconds?: () => number;
}

export function registerHealthRoutes(
  app: FastifyInstance,
  ctx: Pick<EngineContext, "db" | "queues" | "gateway" | "config">,
  { uptimeSeconds = () => process.uptime() }: HealthRouteOptions = {},
): void {
  app.get("/healthz", { config: { readsNoClock: true, neverShed: true } }, async () => ({
    status: "ok",
    uptime_seconds: Math.floor(process.uptime()),
  }));

  // Logged when the answer changes, not on every probe.
  let last: ReadinessStatus | undefined;
  app.get("/readyz", { config: { readsNoClock: true } }, async (request, reply) => {
    const result = await readiness(ctx, { uptimeSeconds: uptimeSeconds() });
    if (result.status !== last) {
      const notOk = Object.fromEntries(
        Object.entries(result.checks)
          .filter(([, check]) => check.status !== "ok")
          .map(([name, check]) => [name, check.reason]),
      );
      const level = result.status === "ready" ? "info" : "warn";
      request.log[level]({ readiness: result.status, checks: notOk }, `readiness: ${result.status}`);
      last = result.status;
    }
    return reply.code(result.status === "ready" ? 200 : 503).send(result);
  });
}
