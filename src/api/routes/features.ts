import type { EngineContext } from "../../context/index.js";
import {
  archiveFeature,
  createFeature,
  createFeatureBody,
  getFeature,
  listFeatures,
  listPlanFeatures,
  planFeatureBody,
  setPlanFeature,
  unsetPlanFeature,
} from "../../entitlements/index.js";
import { notFound } from "../../problems/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { refusingAsProblems } from "../feature-problems.js";
import { idempotencyHeaders } from "../idempotency.js";
import { emptyBody, idParams, problemReplies } from "../schemas/common.js";
import {
  featureListQuery,
  featurePage,
  featureParams,
  featureSchema,
  planFeatureList,
  planFeatureParams,
  planFeatureSchema,
  presentFeature,
  presentPlanFeature,
  removedPlanFeatureSchema,
} from "../schemas/features.js";

const TOLD =
  "Every customer with a trialing, active or past_due subscription on the plan gets an `entitlements.changed` webhook with their new entitlements.";

/** Features, and the features a plan includes (what its subscribers may use: docs/entitlements.md). */
export function featureRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/features",
    {
      schema: {
        tags: ["features"],
        summary: "Create a feature",
        description:
          "A switch (`kind` boolean) or a limit (`kind` limit, e.g. 10 projects). The code is taken exactly as sent: 1-64 of a-z, 0-9, _, . and -, starting with a letter or a digit. " +
          "A code already taken (archived features' too) is refused with 409 `feature_exists`. Every offending field is listed in one 400.",
        headers: idempotencyHeaders,
        body: createFeatureBody,
        response: {
          201: featureSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          409: problemReplies[409],
        },
      },
    },
    async (request, reply) => {
      const feature = await refusingAsProblems(() =>
        createFeature(ctx, request.body, { actor: actorOf(request) }),
      );
      return reply.code(201).send(presentFeature(feature));
    },
  );

  app.get(
    "/features",
    {
      schema: {
        tags: ["features"],
        summary: "List features, oldest first",
        querystring: featureListQuery,
        response: { 200: featurePage, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const { limit, starting_after, include_archived } = request.query;
      const page = await listFeatures(ctx, {
        limit,
        after: starting_after,
        includeArchived: include_archived,
      });
      return { data: page.features.map(presentFeature), has_more: page.nextCursor !== null };
    },
  );

  app.get(
    "/features/:code",
    {
      schema: {
        tags: ["features"],
        summary: "Get a feature by its code",
        params: featureParams,
        response: { 200: featureSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const feature = await getFeature(ctx, request.params.code);
      if (!feature) throw notFound("feature", request.params.code);
      return presentFeature(feature);
    },
  );

  app.post(
    "/features/:code/archive",
    {
      schema: {
        tags: ["features"],
        summary: "Archive a feature: no plan grants it from now on",
        description: `It stays attached to its plans, for the record, and its code stays taken. Archiving an archived feature changes nothing. ${TOLD}`,
        params: featureParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: { 200: featureSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const feature = await archiveFeature(ctx, { code: request.params.code, actor: actorOf(request) });
      if (!feature) throw notFound("feature", request.params.code);
      return presentFeature(feature);
    },
  );

  app.put(
    "/plans/:id/features/:code",
    {
      schema: {
        tags: ["features"],
        summary: "Include a feature in a plan, or change its limit",
        description:
          'A limit feature takes `{ "limit": n }` (a whole number from 0 up) or `{ "limit": null }` (unlimited); a switch takes `{}`. ' +
          "A limit sent for a switch is refused with 422 `limit_not_allowed`, and a limit feature without one with 422 `limit_required`, both naming `limit`; " +
          `an archived feature with 422 \`feature_archived\`. Setting what is already set changes nothing. ${TOLD}`,
        params: planFeatureParams,
        body: planFeatureBody,
        response: {
          200: planFeatureSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
          422: problemReplies[422],
        },
      },
    },
    async (request) => {
      const { id, code } = request.params;
      const body = request.body ?? {};
      const set = await refusingAsProblems(() =>
        setPlanFeature(ctx, {
          planId: id,
          code,
          ...("limit" in body ? { limit: body.limit ?? null } : {}),
          actor: actorOf(request),
        }),
      );
      return presentPlanFeature(set);
    },
  );

  app.delete(
    "/plans/:id/features/:code",
    {
      schema: {
        tags: ["features"],
        summary: "Take a feature off a plan",
        description: `A plan that does not include the feature is a 404. ${TOLD}`,
        params: planFeatureParams,
        response: { 200: removedPlanFeatureSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const { id, code } = request.params;
      const removed = await refusingAsProblems(() =>
        unsetPlanFeature(ctx, { planId: id, code, actor: actorOf(request) }),
      );
      return { plan_id: removed.planId, feature: removed.feature.code, removed: true as const };
    },
  );

  app.get(
    "/plans/:id/features",
    {
      schema: {
        tags: ["features"],
        summary: "List the features a plan includes, by code",
        params: idParams,
        response: { 200: planFeatureList, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const rows = await listPlanFeatures(ctx, request.params.id);
      if (!rows) throw notFound("plan", request.params.id);
      return { data: rows.map(presentPlanFeature) };
    },
  );
}
