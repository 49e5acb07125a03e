import type { ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyReply } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Answered even under pressure: liveness, whose failure would restart a busy but healthy process. */
    neverShed?: boolean;
  }
}

/** Between two "shedding load" lines: under pressure a line per request would add to it. */
const LOG_EVERY_MS = 10_000;

export const SHED_BODY = { error: "the server is overloaded: retry later" } as const;
const SHED_TEXT = JSON.stringify(SHED_BODY);

export interface Shedding {
  /** For a Fastify hook: sets the status and Retry-After; returns the body to send. */
  reply(reply: FastifyReply, cause: string, value?: number): typeof SHED_BODY;
  /** For the raw server, before Fastify has spent anything on the request: answers it. */
  raw(response: ServerResponse, cause: string, value?: number): void;
}

/**
 * What a request shed under load gets (load-shedding.ts, in-flight-limit.ts): a 503 with
 * Retry-After, at once, so a client or a balancer can go elsewhere or come back, instead of a wait
 * that grows until it times out. The first refusal of a spell is logged (warn), then one every 10 s
 * while it lasts.
 */
export function shedding(retryAfterSeconds: number, log: FastifyBaseLogger): Shedding {
  let loggedAt = 0;
  const note = (cause: string, value: number | undefined) => {
    const now = Date.now();
    if (now - loggedAt < LOG_EVERY_MS) return;
    loggedAt = now;
    log.warn({ pressure: cause, value }, `shedding load (${cause}): answering 503`);
  };
  return {
    reply(reply, cause, value) {
      note(cause, value);
      reply.code(503).header("retry-after", String(retryAfterSeconds));
      return SHED_BODY;
    },
    raw(response, cause, value) {
      note(cause, value);
      response.writeHead(503, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(SHED_TEXT),
        "retry-after": String(retryAfterSeconds),
      });
      response.end(SHED_TEXT);
    },
  };
}
