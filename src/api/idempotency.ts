import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { ApiProblem } from "../problems/index.js";
import { callerOf } from "./context.js";
import { claimIdempotencyKey, completeIdempotencyKey, type IdempotencyRef } from "./idempotency-store.js";
import { PROBLEM_CONTENT_TYPE } from "./problem.js";

/**
 * Idempotency-Key on POST. The same key with the same request (method, path and body, compared
 * as canonical JSON, so key order and whitespace do not matter) replays the first response,
 * status and body, marked `Idempotent-Replayed: true`, for 24 hours of the billing clock. The
 * same key with a different request is a 409; so is a duplicate that arrives while the first
 * is still running (it is not made to wait: holding a connection for a gateway call that can take
 * seconds helps nobody, and the client retries after Retry-After).
 *
 * Every response of a request that reached its handler is stored, 5xx included: the engine cannot
 * tell whether a failed request wrote something (enroll may have created the subscription before
 * the gateway failed to open its checkout), so running it again under the same key could do it
 * twice. A client that wants a second try after a 5xx sends a new key, knowingly. A request
 * refused by schema validation never reaches the claim, as with Stripe: fixing the body and
 * retrying with the same key is allowed.
 *
 * Only the POST routes that declare the header take part. Elsewhere (a GET, or a path no route
 * matches, answered 404 route_not_found) the header is ignored, so such a request never uses up
 * a key, and an empty key there is not looked at at all.
 */

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";
const TTL = { hours: 24 } as const;

/** Declared on every POST route, for validation and so that the OpenAPI document shows it. */
export const idempotencyHeaders = z.looseObject({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .min(1, { error: "Idempotency-Key must not be empty" })
    .max(255, { error: "Idempotency-Key must be at most 255 characters" })
    .optional()
    .describe("Makes a retried POST safe: the same key and body replay the first response for 24 hours"),
});

const hashes = new WeakMap<FastifyRequest, string>();
const claims = new WeakMap<FastifyRequest, IdempotencyRef>();

/** JSON with object keys sorted at every level, so equal values always hash the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

function takesPart(request: FastifyRequest): boolean {
  return request.method === "POST" && request.routeOptions.schema?.headers === idempotencyHeaders;
}

function keyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER];
  return typeof value === "string" ? value : undefined;
}

/**
 * preValidation: fingerprints the body as the client sent it. Validation then replaces the body
 * with its parsed form (defaults filled in), which must not decide whether two requests match.
 */
export async function fingerprintRequest(request: FastifyRequest): Promise<void> {
  if (!takesPart(request) || keyOf(request) === undefined) return;
  hashes.set(request, requestFingerprint(request.method, request.url, request.body));
}

/** What must match for a retry to be a replay: method, path with query, and body as JSON. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  const text = `${method}\n${url}\n${canonicalJson(body)}`;
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** preHandler: claims the key, or answers from an earlier request and skips the handler. */
export function claimOrReplay(ctx: Pick<EngineContext, "db" | "clock">) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const key = keyOf(request);
    const requestHash = hashes.get(request);
    if (key === undefined || requestHash === undefined) return undefined;
    const ref: IdempotencyRef = { apiKeyId: callerOf(request).id, key, requestHash };
    const claim = await claimIdempotencyKey(ctx.db, ref, ctx.clock.now(), TTL);
    switch (claim.kind) {
      case "claimed":
        claims.set(request, ref);
        return undefined;
      case "mismatch":
        throw new ApiProblem(
          409,
          "idempotency_key_reused",
          "Idempotency-Key reused",
          "this Idempotency-Key was already used with a different request; use a new key",
        );
      case "in_progress":
        throw new ApiProblem(
          409,
          "idempotency_key_in_progress",
          "Request in progress",
          "a request with this Idempotency-Key is still being processed; retry later",
          {},
          { "retry-after": "1" },
        );
      case "replay":
        reply.code(claim.status).header(REPLAYED_HEADER, "true");
        // A success goes through the route's reply schema again, which puts the keys back in the
        // order of the first response (jsonb stores them sorted); a problem is sent as stored.
        if (claim.status < 400) return reply.send(claim.body);
        return reply.type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(claim.body));
    }
  };
}

/** onSend: records the claimed request's response, to be replayed. */
export function recordResponse(ctx: Pick<EngineContext, "db" | "logger">) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const ref = claims.get(request);
    if (!ref) return payload;
    claims.delete(request);
    try {
      // Every reply of the API is JSON text by the time it is sent.
      const body: unknown = JSON.parse(String(payload));
      await completeIdempotencyKey(ctx.db, ref, { status: reply.statusCode, body });
    } catch (error) {
      // The response itself is fine; the key stays "in progress" until it expires.
      ctx.logger.error({ err: error, idempotencyKey: ref.key }, "idempotency record not saved");
    }
    return payload;
  };
}
