import type { FastifyRequest } from "fastify";
import { authenticateApiKey, permits } from "../apikeys/index.js";
import type { EngineContext } from "../context/index.js";
import { ApiProblem } from "../problems/index.js";
import { setCaller } from "./context.js";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

function unauthorized(detail: string): ApiProblem {
  return new ApiProblem(
    401,
    "unauthorized",
    "Authentication required",
    detail,
    {},
    // RFC 6750: a 401 names the scheme the client should use.
    { "www-authenticate": 'Bearer realm="billing-engine"' },
  );
}

/**
 * onRequest hook of the /v1 scope: every merchant route needs `Authorization: Bearer <key>`; a
 * key that may not do the route's operation (read-only, restricted: apikeys/permissions.ts) is
 * refused with a 403 before any body is looked at.
 */
export function authenticate(ctx: Pick<EngineContext, "db">) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (header === undefined) throw unauthorized("send the API key as Authorization: Bearer <key>");
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) throw unauthorized("the Authorization header must be Bearer <key>");
    const key = await authenticateApiKey(ctx.db, token);
    // One answer for unknown, malformed and revoked keys: which one it was is nobody's business.
    if (!key) throw unauthorized("the API key is not valid");
    const route = request.routeOptions.url ?? "";
    if (!permits(key, request.method, route)) {
      const detail =
        key.scope === "read_only"
          ? "this API key is read-only: it may only read (GET)"
          : `this API key may not do ${request.method} ${route}; besides reading it may only: ${(key.allowedOperations ?? []).join(", ")}`;
      throw new ApiProblem(403, "forbidden", "Forbidden", detail);
    }
    setCaller(request, key);
  };
}
