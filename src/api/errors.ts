import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ApiProblem, domainProblem, type FieldError, validationFailed } from "../problems/index.js";
import { sendProblem } from "./problem.js";

/**
 * The error handler of the /v1 scope: whatever a hook or handler throws leaves as problem+json.
 * The engine's service errors are mapped in src/problems/domain-problems.ts, so handlers stay thin.
 */

const LOCATIONS: Record<string, FieldError["location"]> = {
  body: "body",
  querystring: "query",
  params: "path",
  headers: "header",
};

interface ZodIssueLike {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

function fieldErrors(issues: readonly ZodIssueLike[], context: string | undefined): FieldError[] {
  const location = LOCATIONS[context ?? "body"] ?? "body";
  return issues.flatMap((issue): FieldError[] => {
    const field = issue.instancePath.split("/").filter(Boolean).join(".");
    const message = issue.message ?? "is invalid";
    // A strict object names the unknown keys in params, not in the path: one entry per key.
    const unknownKeys = issue.params?.keys;
    if (Array.isArray(unknownKeys) && unknownKeys.length > 0) {
      return unknownKeys.map((key) => ({
        field: field ? `${field}.${String(key)}` : String(key),
        location,
        message: location === "query" ? "unknown parameter" : "unknown field",
      }));
    }
    return [{ field: field || location, location, message }];
  });
}

/**
 * No body at all, or an empty one (json-body.ts), where the route requires one: said so, rather
 * than zod's "expected object, received null" about a body the client never sent.
 */
const refusesMissingBody = (
  issues: readonly ZodIssueLike[],
  context: string | undefined,
  request: FastifyRequest,
): boolean =>
  context === "body" && request.body == null && issues.every((issue) => issue.instancePath === "/");

/** "Unsupported Media Type" → "unsupported_media_type". */
function snakeCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

/** Maps a thrown value to the problem the client sees, or undefined for a 500. */
export function toProblem(error: unknown, request: FastifyRequest): ApiProblem | undefined {
  if (error instanceof ApiProblem) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    // Path parameters are ids; an id that cannot exist is simply not found.
    if (error.validationContext === "params") {
      return new ApiProblem(404, "not_found", "Resource not found", `nothing at ${request.url}`);
    }
    if (refusesMissingBody(error.validation, error.validationContext, request)) {
      return validationFailed([{ field: "body", location: "body", message: "a JSON body is required" }]);
    }
    return validationFailed(fieldErrors(error.validation, error.validationContext));
  }
  const domain = domainProblem(error);
  if (domain) return domain;
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  // Fastify's own refusals (bad JSON, unsupported media type, body too large) keep their status.
  if (typeof status === "number" && status >= 400 && status < 500) {
    const title = STATUS_CODES[status] ?? "Bad Request";
    return new ApiProblem(status, snakeCase(title), title, fastifyError.message ?? "the request is invalid");
  }
  return undefined;
}

export function handleApiError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const problem = toProblem(error, request);
  if (problem) {
    if (problem.status >= 500) request.log.warn({ err: error }, problem.detail);
    return sendProblem(reply, problem);
  }
  request.log.error({ err: error }, "merchant API request failed");
  return sendProblem(
    reply,
    new ApiProblem(
      500,
      "internal_error",
      "Internal error",
      "the request failed unexpectedly; see the server log",
    ),
  );
}

export function handleApiNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(
    reply,
    new ApiProblem(404, "route_not_found", "Route not found", `no route ${request.method} ${request.url}`),
  );
}
