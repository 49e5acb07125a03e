import type { EngineContext } from "../../context/index.js";
import { notFound } from "../../problems/index.js";
import { createWebhookEndpoint, disableWebhookEndpoint, listWebhookEndpoints } from "../../webhooks/index.js";
import type { ApiApp } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { idParams, problemReplies } from "../schemas/common.js";
import {
  createdWebhookEndpointSchema,
  createWebhookEndpointBody,
  disabledWebhookEndpointSchema,
  presentWebhookEndpoint,
  webhookEndpointList,
} from "../schemas/webhook-endpoints.js";

export function webhookEndpointRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/webhook-endpoints",
    {
      schema: {
        tags: ["webhook endpoints"],
        summary: "Add a URL that receives signed events",
        headers: idempotencyHeaders,
        body: createWebhookEndpointBody,
        response: { 201: createdWebhookEndpointSchema, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request, reply) => {
      const endpoint = await createWebhookEndpoint(ctx, { url: request.body.url });
      return reply.code(201).send({ ...presentWebhookEndpoint(endpoint), secret: endpoint.secret });
    },
  );

  app.get(
    "/webhook-endpoints",
    {
      schema: {
        tags: ["webhook endpoints"],
        summary: "List webhook endpoints (without their secrets)",
        response: { 200: webhookEndpointList, 401: problemReplies[401] },
      },
    },
    async () => ({ data: (await listWebhookEndpoints(ctx.db)).map(presentWebhookEndpoint) }),
  );

  app.delete(
    "/webhook-endpoints/:id",
    {
      schema: {
        tags: ["webhook endpoints"],
        summary: "Disable an endpoint; its pending deliveries are failed",
        params: idParams,
        response: { 200: disabledWebhookEndpointSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await disableWebhookEndpoint(ctx.db, id))) throw notFound("webhook endpoint", id);
      return { id, enabled: false as const };
    },
  );
}
