import { validatorCompiler } from "fastify-type-provider-zod";
import { z } from "zod";
import type { EngineContext } from "../../context/index.js";
import { ApiProblem, notFound } from "../../problems/index.js";
import {
  currentUsage,
  ingestUsage,
  MAX_BATCH,
  type UsageResult,
  usageBatchSchema,
  usageEventSchema,
} from "../../usage/index.js";
import type { ApiApp } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { idParams, iso, problemReplies } from "../schemas/common.js";
import { currentUsageSchema, presentBatch, usageBatchReply, usageResultSchema } from "../schemas/usage.js";

/**
 * Usage events in, usage so far out. The body is one event or `{ "events": [...] }`: which one is
 * decided by the `events` key before validating, so every error names its field (`events.3.quantity`,
 * or `quantity` for a single event) instead of a union's "invalid input".
 */

const usageBody = z.union([usageBatchSchema, usageEventSchema]);

const isBatch = (body: unknown): boolean => typeof body === "object" && body !== null && "events" in body;

const validateBatch = validatorCompiler({ schema: usageBatchSchema } as never);
const validateEvent = validatorCompiler({ schema: usageEventSchema } as never);

/** The route's validator: the body by its form; every other part as the whole API validates it. */
const validateUsageRequest = ((route: { schema: unknown; httpPart?: string }) => {
  if (route.httpPart !== "body") return validatorCompiler(route as never);
  return (data: unknown) => (isBatch(data) ? validateBatch(data) : validateEvent(data));
}) as never;

/** A refused single event, as a problem naming the field at fault. */
function refusal(result: Extract<UsageResult, { status: "refused" }>): ApiProblem {
  return new ApiProblem(422, result.code, "Usage event refused", result.reason, {
    event_id: result.id,
    errors: [{ field: result.field, location: "body", message: result.reason }],
  });
}

export function usageRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/usage",
    {
      validatorCompiler: validateUsageRequest,
      schema: {
        tags: ["usage"],
        summary: "Record usage events",
        description:
          `One event, or a batch \`{ "events": [ … ] }\` of up to ${MAX_BATCH}, written in one statement. ` +
          "Each event names its `subscription_id` (or a `customer_id` with exactly one live subscription), a `meter` code, a whole `quantity` (default 1) and a `timestamp` (default now). " +
          "An event is accepted when its timestamp is in the subscription's current period, or in the previous one until USAGE_GRACE_HOURS after it ended; at most 5 minutes ahead of now. " +
          "The same `id` for the same subscription is recorded once, whatever its timestamp: a repeat answers `duplicate`. " +
          "A batch answers 200 with one result per event (refusals name `events.N.field`); a single event answers 200, or 422 with the refusal's code.",
        headers: idempotencyHeaders,
        body: usageBody,
        response: {
          200: z.union([usageBatchReply, usageResultSchema]),
          400: problemReplies[400],
          401: problemReplies[401],
          422: problemReplies[422],
        },
      },
    },
    async (request) => {
      const body = request.body;
      if ("events" in body) return presentBatch(await ingestUsage(ctx, body.events));
      const [result] = await ingestUsage(ctx, [body]);
      if (!result) throw new Error("an event went unanswered");
      if (result.status === "refused") throw refusal(result);
      return { id: result.id, status: result.status };
    },
  );

  app.get(
    "/subscriptions/:id/usage",
    {
      schema: {
        tags: ["usage"],
        summary: "Usage of a subscription's current period so far",
        params: idParams,
        response: { 200: currentUsageSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const found = await currentUsage(ctx, request.params.id);
      if (!found) throw notFound("subscription", request.params.id);
      return {
        subscription_id: found.subscriptionId,
        period_start: iso(found.period?.start ?? null),
        period_end: iso(found.period?.end ?? null),
        meters: found.meters.map(({ code, aggregation, value }) => ({ meter: code, aggregation, value })),
      };
    },
  );
}
