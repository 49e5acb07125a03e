import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawServerDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AuthenticatedApiKey } from "../apikeys/index.js";

/** The /v1 scope, typed so that route schemas written in zod type the handlers. */
export type ApiApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * The API key behind each authenticated request. A WeakMap rather than a request decorator keeps
 * the merchant API from changing the FastifyRequest type of the whole server it is mounted on.
 */
const callers = new WeakMap<FastifyRequest, AuthenticatedApiKey>();

export function setCaller(request: FastifyRequest, key: AuthenticatedApiKey): void {
  callers.set(request, key);
}

export function callerOf(request: FastifyRequest): AuthenticatedApiKey {
  const key = callers.get(request);
  // Every /v1 route runs behind the auth hook, so a missing key is a wiring bug, not a 401.
  if (!key) throw new Error("request reached a merchant API handler without an authenticated key");
  return key;
}

/** The actor recorded in events for what this request does, as the events table documents. */
export function actorOf(request: FastifyRequest): string {
  return `api:${callerOf(request).id}`;
}
