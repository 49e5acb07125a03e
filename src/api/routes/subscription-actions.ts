import { cancelSubscription, pauseSubscription, resumeSubscription } from "../../cancellation/index.js";
import type { EngineContext } from "../../context/index.js";
import { enroll, startReEnrollment } from "../../enrollment/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { emptyBody, idParams, problemReplies } from "../schemas/common.js";
import {
  cancelBody,
  checkoutLinkSchema,
  createdSubscriptionSchema,
  createSubscriptionBody,
  presentSubscription,
  subscriptionActionReplies,
} from "../schemas/subscriptions.js";
import { findSubscription } from "../services/subscriptions.js";

/**
 * Subscribing and the lifecycle actions. Each action answers with the subscription as it is
 * afterwards, read back once the service has committed.
 */
export function subscriptionActionRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/subscriptions",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Subscribe a customer to a plan",
        description:
          "Creates a pending_enrollment subscription and a hosted checkout where the customer saves a card; the subscription starts when the gateway confirms the payment. " +
          "A customer who already has a subscription to the plan that is not canceled is refused with 409 `already_subscribed` naming it, unless `allow_duplicate` is true. " +
          "A plan whose currency the gateway account does not take (GATEWAY_CURRENCIES) is refused with 422 `currency_not_supported`. " +
          "A `coupon` is checked before anything is written and redeemed with the subscription; it is refused as on POST /v1/subscriptions/{id}/discount, a plan with billing_mode recurring with 422 `coupon_needs_autosave`. " +
          "When the gateway gives no checkout (502 `checkout_failed`): if it refused, the subscription is canceled at once (`subscription_canceled: true`) and subscribing again starts afresh; " +
          "if its answer was lost, the subscription stays pending_enrollment and a new card link gives it a checkout.",
        headers: idempotencyHeaders,
        body: createSubscriptionBody,
        response: {
          201: createdSubscriptionSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          409: problemReplies[409],
          422: problemReplies[422],
        },
      },
    },
    async (request, reply) => {
      const { customer_id, plan_id, allow_duplicate = false, coupon } = request.body;
      const result = await enroll(ctx, {
        customerId: customer_id,
        planId: plan_id,
        actor: actorOf(request),
        allowDuplicate: allow_duplicate,
        coupon,
      });
      const subscription = await findSubscription(ctx.db, result.subscriptionId);
      return reply.code(201).send({
        ...presentSubscription(subscription),
        enrollment_id: result.enrollmentId,
        checkout_url: result.checkoutUrl,
      });
    },
  );

  app.post(
    "/subscriptions/:id/cancel",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Cancel now, or at the end of the current period",
        params: idParams,
        headers: idempotencyHeaders,
        body: cancelBody,
        response: { ...subscriptionActionReplies, 400: problemReplies[400] },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { at_period_end = false, reason } = request.body ?? {};
      await cancelSubscription(ctx, {
        subscriptionId: id,
        mode: at_period_end ? "at_period_end" : "immediately",
        actor: actorOf(request),
        reason,
      });
      return presentSubscription(await findSubscription(ctx.db, id));
    },
  );

  app.post(
    "/subscriptions/:id/pause",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Pause an active subscription: no period is charged until it resumes",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: subscriptionActionReplies,
      },
    },
    async (request) => {
      const { id } = request.params;
      await pauseSubscription(ctx, { subscriptionId: id, actor: actorOf(request) });
      return presentSubscription(await findSubscription(ctx.db, id));
    },
  );

  app.post(
    "/subscriptions/:id/resume",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Resume a paused subscription, or keep one that was set to cancel at period end",
        description:
          "A live subscription (trialing, active, past_due) set to cancel at the end of its period keeps going: the cancellation is cleared (event `subscription.cancel_unscheduled`) and its period and next billing stay as they were. " +
          "A paused subscription becomes active; billing restarts at the next period boundary after now, keeping the anchor day. " +
          "An active subscription with nothing pending is answered unchanged; any other state is refused with 409.",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: subscriptionActionReplies,
      },
    },
    async (request) => {
      const { id } = request.params;
      await resumeSubscription(ctx, { subscriptionId: id, actor: actorOf(request) });
      return presentSubscription(await findSubscription(ctx.db, id));
    },
  );

  app.post(
    "/subscriptions/:id/new-card-link",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "A fresh hosted checkout where the customer saves a new card",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: {
          201: checkoutLinkSchema,
          401: problemReplies[401],
          404: problemReplies[404],
          422: problemReplies[422],
        },
      },
    },
    async (request, reply) => {
      const result = await startReEnrollment(ctx, {
        subscriptionId: request.params.id,
        actor: actorOf(request),
      });
      return reply.code(201).send({ enrollment_id: result.enrollmentId, checkout_url: result.checkoutUrl });
    },
  );
}
