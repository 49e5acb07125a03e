import type { FastifyRequest } from "fastify";
import { authenticateApiKey } from "../apikeys/index.js";
import type { EngineContext } from "../context/index.js";
import { setCaller } from "./context.js";
import { ApiProblem } from "./problem.js";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
/** What a read-only key may do. */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

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
 * read-only key is refused (403) anything but a read, before any body is looked at.
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
    if (key.scope === "read_only" && !READS.has(request.method)) {
      throw new ApiProblem(
        403,
        "forbidden",
        "Forbidden",
        "this API key is read-only: it may only read (GET)",
      );
    }
    setCaller(request, key);
  };
}
