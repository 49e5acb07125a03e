import type { EngineContext } from "../../context/index.js";
import { ApiProblem, notFound } from "../../problems/index.js";
import { findSubscription, listSubscriptionEvents, listSubscriptions } from "../../resources/index.js";
import { upcomingCharge } from "../../upcoming/index.js";
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
import { presentUpcomingCharge, upcomingChargeSchema } from "../schemas/upcoming.js";

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
    "/subscriptions/:id/upcoming",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Preview the next charge",
        description:
          "The charge the billing tick will create at next_billing_at, priced by the same code: the period, the plan and quantity it bills " +
          "(a change scheduled by then, else the current ones), its lines with how the price model priced them, the live coupon's discount, " +
          "the credit used, the total and the tax included in it. Nothing is written. A subscription that will not be billed " +
          "(past_due, ending at its period's end, paused, canceled, pending) answers 409 `no_upcoming_charge` saying why.",
        params: idParams,
        response: {
          200: upcomingChargeSchema,
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
        },
      },
    },
    async (request) => {
      const upcoming = await upcomingCharge(ctx.db.$client, request.params.id, {
        taxRateBp: ctx.config.TAX_RATE_PERCENT,
        usageGraceHours: ctx.config.USAGE_GRACE_HOURS,
      });
      if ("reason" in upcoming) {
        if (upcoming.reason === "not_found") throw notFound("subscription", request.params.id);
        throw new ApiProblem(409, "no_upcoming_charge", "No upcoming charge", upcoming.detail);
      }
      return presentUpcomingCharge(upcoming);
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
