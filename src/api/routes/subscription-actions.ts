import { cancelSubscription, pauseSubscription, resumeSubscription } from "../../cancellation/index.js";
import type { EngineContext } from "../../context/index.js";
import { startReEnrollment, subscribe } from "../../enrollment/index.js";
import { setCollectionMethod } from "../../payment-links/index.js";
import { creditGrantBody, grantCredit } from "../../pricing/index.js";
import { findSubscription } from "../../resources/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { emptyBody, idParams, problemReplies } from "../schemas/common.js";
import { creditGrantedSchema, presentCreditGranted } from "../schemas/credit.js";
import {
  cancelBody,
  checkoutLinkSchema,
  collectionMethodBody,
  createdSubscriptionSchema,
  createSubscriptionBody,
  presentSubscription,
  subscriptionActionReplies,
} from "../schemas/subscriptions.js";

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
          "With `collection_method` send_payment_link (the default of a plan that says so, or whose trial needs no card) there is no card and no checkout: the subscription starts at once, trialing or active, each charge goes to the customer as a payment link, and `enrollment_id` and `checkout_url` are null. " +
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
      const {
        customer_id,
        plan_id,
        quantity,
        allow_duplicate = false,
        coupon,
        collection_method,
      } = request.body;
      const result = await subscribe(ctx, {
        customerId: customer_id,
        planId: plan_id,
        quantity,
        actor: actorOf(request),
        allowDuplicate: allow_duplicate,
        coupon,
        collectionMethod: collection_method,
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
    "/subscriptions/:id/collection-method",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Switch how the subscription pays: by its card, or by payment link",
        description:
          "send_payment_link: each charge waiting for the card (scheduled or retrying) goes to the customer as a payment link at once, and so does every later charge; the card stays on file. " +
          "charge_automatically: only with a card the gateway lets us charge (an active token; a recurring one only for charges of the amount it was saved for), else refused with 422 `no_usable_card` (a new-card link or the customer portal saves one, and switches by itself); charges waiting for their link go back to the card. " +
          "A subscription still pending enrollment (its card-saving checkout failed, as a Qatar debit card's does, or was not paid) starts at once paying by link with send_payment_link; charge_automatically is refused for it with 409 `subscription_ended`, as for a canceled one. The same method again changes nothing. Answers the subscription afterwards.",
        params: idParams,
        headers: idempotencyHeaders,
        body: collectionMethodBody,
        response: { ...subscriptionActionReplies, 400: problemReplies[400] },
      },
    },
    async (request) => {
      const { id } = request.params;
      await setCollectionMethod(ctx, {
        subscriptionId: id,
        method: request.body.collection_method,
        actor: actorOf(request),
      });
      return presentSubscription(await findSubscription(ctx.db, id));
    },
  );

  app.post(
    "/subscriptions/:id/credit",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Give the customer credit, taken off the next charges",
        description:
          "The gateway refunds only whole payments: part of a payment goes back as credit, which each new charge of the subscription uses before anything is collected. " +
          "Send `amount` as a decimal string in the plan's currency (converted exactly: more decimals than the currency has is refused) or `amount_minor`, and a `reason`; " +
          "the grant is recorded as the event `subscription.credit_granted` naming this API key and the reason (the audit). " +
          "Refused: a canceled subscription (409 `subscription_ended`); one charged with a recurring card token, which the gateway charges only its saved amount (422 `card_amount_fixed`); " +
          "a balance beyond twelve periods of the plan's price (422 `amount_too_large`). Answers the credit given and the balance after.",
        params: idParams,
        headers: idempotencyHeaders,
        body: creditGrantBody,
        response: {
          200: creditGrantedSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
          422: problemReplies[422],
        },
      },
    },
    async (request) => {
      const { amount, amount_minor, reason } = request.body;
      const granted = await grantCredit(ctx, {
        subscriptionId: request.params.id,
        amount,
        amountMinor: amount_minor,
        reason,
        actor: actorOf(request),
      });
      return presentCreditGranted(granted);
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
