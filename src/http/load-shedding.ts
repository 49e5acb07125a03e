import { getHeapStatistics } from "node:v8";
import underPressure, {
  type FastifyUnderPressureOptions as UnderPressureOptions,
} from "@fastify/under-pressure";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config/index.js";
import { shedding } from "./shed.js";

export type LoadSheddingSettings = Pick<
  Config,
  "LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS" | "LOAD_SHED_MAX_HEAP_MB" | "LOAD_SHED_RETRY_AFTER_SECONDS"
>;

/**
 * Load shedding by the process's health (@fastify/under-pressure): while the event loop lags more
 * than LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS (mean over the last second) or the heap holds more than
 * LOAD_SHED_MAX_HEAP_MB, every request is shed (shed.ts: 503 with Retry-After): before Fastify
 * sees it when it comes through the server (in-flight-limit.ts's gate asks isUnderPressure), else
 * before any hook of its own runs (no clock read, no session lookup). Routes marked `neverShed` (liveness) still run;
 * readiness sheds, which is what takes a drowning process out of a balancer. Register before every
 * route and hook.
 */
export function registerLoadShedding(app: FastifyInstance, settings: LoadSheddingSettings): void {
  const heapMb =
    settings.LOAD_SHED_MAX_HEAP_MB ?? Math.floor((getHeapStatistics().heap_size_limit * 0.9) / 2 ** 20);
  const shed = shedding(settings.LOAD_SHED_RETRY_AFTER_SECONDS, app.log);

  const pressureHandler = (request: FastifyRequest, reply: FastifyReply, type: string, value?: number) =>
    request.routeOptions.config.neverShed ? undefined : shed.reply(reply, type, value);

  app.register(underPressure, {
    maxEventLoopDelay: settings.LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes: heapMb * 2 ** 20,
    retryAfter: settings.LOAD_SHED_RETRY_AFTER_SECONDS,
    // Typed as returning nothing, but what it returns is sent (the plugin's README): the request
    // then goes no further, where a reply.send() followed by "carry on" could still reach a hook.
    pressureHandler: pressureHandler as unknown as UnderPressureOptions["pressureHandler"],
  });
}
