import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config/index.js";
import { Admission } from "./admission.js";
import { pathOf } from "./log-controller.js";
import { shedding } from "./shed.js";

/** Sheds a request the server received (answers it and returns true), or lets Fastify have it. */
export type RequestGate = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * Load shedding at the server's door, before Fastify spends anything on a request (which keeps
 * the refusals quick under a flood): a flood's requests mostly wait for the database pool, where
 * the event loop stays idle (no lag for load-shedding.ts to see) while each answer comes later
 * than the one before (under 10,000 connections, after tens of seconds). So a request is shed
 * (shed.ts: 503 with Retry-After) when admission.ts does not let it in (LOAD_SHED_MAX_IN_FLIGHT in
 * progress, or a line standing past LOAD_SHED_QUEUE_TARGET_MS), or while load-shedding.ts's
 * thresholds are crossed.
 * A request is in progress until its answer is on its way (onSend) or sent, not until its client
 * goes: a client that gave up leaves its request running (Fastify carries on, and onSend still
 * comes), and that work is what the line is made of. Routes marked `neverShed` (liveness) are
 * neither counted nor refused. 0 turns a limit off. Requests injected without a server (tests) do
 * not pass the door. Register before every route.
 */
export function registerInFlightLimit(
  app: FastifyInstance,
  settings: Pick<
    Config,
    "LOAD_SHED_MAX_IN_FLIGHT" | "LOAD_SHED_QUEUE_TARGET_MS" | "LOAD_SHED_RETRY_AFTER_SECONDS"
  >,
): RequestGate {
  const admission = new Admission(
    settings.LOAD_SHED_MAX_IN_FLIGHT || Number.POSITIVE_INFINITY,
    settings.LOAD_SHED_QUEUE_TARGET_MS || Number.POSITIVE_INFINITY,
  );
  const shed = shedding(settings.LOAD_SHED_RETRY_AFTER_SECONDS, app.log);
  const exempt = new Set<string>();

  app.addHook("onRoute", (route) => {
    if (route.config?.neverShed) exempt.add(route.url);
  });
  app.addHook("onSend", async (request, _reply, payload) => {
    admission.leave(request.raw, performance.now());
    return payload;
  });

  return (request, response) => {
    if (exempt.has(pathOf(request.url ?? ""))) return false;
    if (app.hasDecorator("isUnderPressure") && app.isUnderPressure()) {
      shed.raw(response, "event loop or heap");
      return true;
    }
    const refused = admission.enter(request, performance.now());
    if (refused) {
      shed.raw(response, refused, admission.inProgress);
      return true;
    }
    response.once("finish", () => admission.leave(request, performance.now()));
    return false;
  };
}
