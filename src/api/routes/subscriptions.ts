import type { EngineContext } from "../../context/index.js";
import type { ApiApp } from "../context.js";
import { idParams, problemReplies } from "../schemas/common.js";
import {
  eventListQuery,
  eventPage,
  presentEvent,
  presentSubscription,
  subscriptionListQuery,
  subscriptionPage,
  subscriptionSchema,
} from "../schemas/subscriptions.js";
import { findSubscription, listSubscriptionEvents, listSubscriptions } from "../services/subscriptions.js";

/** Reading subscriptions and their history; the lifecycle actions are in subscription-actions.ts. */
export function subscriptionRoutes(app: ApiApp, ctx: EngineContext): void {
  app.get(
    "/subscriptions",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "List subscriptions, oldest first",
        querystring: subscriptionListQuery,
        response: { 200: subscriptionPage, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const page = await listSubscriptions(ctx.db, request.query);
      return { data: page.data.map(presentSubscription), has_more: page.has_more };
    },
  );

  app.get(
    "/subscriptions/:id",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Get a subscription",
        params: idParams,
        response: { 200: subscriptionSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => presentSubscription(await findSubscription(ctx.db, request.params.id)),
  );

  app.get(
    "/subscriptions/:id/events",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "The subscription's event log, oldest first",
        params: idParams,
        querystring: eventListQuery,
        response: {
          200: eventPage,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
        },
      },
    },
    async (request) => {
      const page = await listSubscriptionEvents(ctx.db, request.params.id, request.query);
      return { data: page.data.map(presentEvent), has_more: page.has_more };
    },
  );
}
