import type { EngineContext } from "../../context/index.js";
import { ApiProblem, notFound } from "../../problems/index.js";
import {
  archiveMeter,
  createMeter,
  listMeters,
  MeterExistsError,
  meterInputSchema,
} from "../../usage/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { emptyBody, problemReplies } from "../schemas/common.js";
import { meterListQuery, meterPage, meterParams, meterSchema, presentMeter } from "../schemas/usage.js";

/** Meters: what usage is counted in (src/usage). */
export function meterRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/meters",
    {
      schema: {
        tags: ["usage"],
        summary: "Create a meter",
        description:
          "`code` (lower-case a-z, 0-9, `_ . -`, up to 64) is what usage events name; it is unique for good, archived meters included (409 `meter_exists`). " +
          "`aggregation` says how a period's events add up: sum, count, max, unique_count (of distinct_value) or last.",
        headers: idempotencyHeaders,
        body: meterInputSchema,
        response: {
          201: meterSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          409: problemReplies[409],
        },
      },
    },
    async (request, reply) => {
      try {
        const meter = await createMeter(ctx, request.body, { actor: actorOf(request) });
        return reply.code(201).send(presentMeter(meter));
      } catch (error) {
        if (!(error instanceof MeterExistsError)) throw error;
        throw new ApiProblem(409, "meter_exists", "Meter code taken", error.message, {
          errors: [{ field: "code", location: "body", message: error.message }],
        });
      }
    },
  );

  app.get(
    "/meters",
    {
      schema: {
        tags: ["usage"],
        summary: "List meters, oldest first",
        querystring: meterListQuery,
        response: { 200: meterPage, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const { limit, starting_after, include_archived } = request.query;
      const page = await listMeters(ctx, { limit, after: starting_after, includeArchived: include_archived });
      return { data: page.meters.map(presentMeter), has_more: page.nextCursor !== null };
    },
  );

  app.post(
    "/meters/:id/archive",
    {
      schema: {
        tags: ["usage"],
        summary: "Archive a meter",
        description:
          "It takes no new events from now (they are refused `meter_archived`); what it recorded still counts. Archiving again changes nothing.",
        headers: idempotencyHeaders,
        params: meterParams,
        body: emptyBody,
        response: { 200: meterSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const meter = await archiveMeter(ctx, request.params.id, { actor: actorOf(request) });
      if (!meter) throw notFound("meter", request.params.id);
      return presentMeter(meter);
    },
  );
}
