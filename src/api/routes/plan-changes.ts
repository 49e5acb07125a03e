import type { EngineContext } from "../../context/index.js";
import { cancelScheduledPlanChange, changePlan } from "../../plan-changes/index.js";
import { findSubscription } from "../../resources/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { emptyBody, idParams, problemReplies } from "../schemas/common.js";
import { changePlanBody, changePlanReply, presentPlanChange } from "../schemas/plan-changes.js";
import { presentSubscription, subscriptionSchema } from "../schemas/subscriptions.js";

/** Moving a subscription to another plan, and taking back a change scheduled for the period's end. */
export function planChangeRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/subscriptions/:id/change-plan",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Move a subscription to another plan or quantity (seats)",
        description:
          "`immediate_prorate` credits the unused part of the current period at the old price and charges the same part at the new one " +
          "(each rounded half up to the minor unit); a positive difference is collected at once as its own charge, a negative one is kept as credit for the next charges. " +
          "A plan with another interval re-anchors: its first period starts now and is charged in full, less that credit. " +
          "A change of `quantity` (seats), alone or with a plan, is priced the same way: each side of the period at its plan's price model and quantity. " +
          "`at_period_end` schedules the change (one per subscription; a new request replaces it); `none` changes the plan now for nothing. " +
          "Refused: another currency (422 `currency_mismatch`), a past_due subscription (409 `subscription_past_due`), a card saved as a recurring token " +
          "moving to another price or interval (422 `card_amount_fixed`), a proration while a charge is still open (409 `period_not_settled`).",
        params: idParams,
        headers: idempotencyHeaders,
        body: changePlanBody,
        response: {
          200: changePlanReply,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
          422: problemReplies[422],
        },
      },
    },
    async (request) => {
      const { plan_id, quantity, proration, reason } = request.body;
      const result = await changePlan(ctx, {
        subscriptionId: request.params.id,
        planId: plan_id,
        quantity,
        proration,
        reason,
        actor: actorOf(request),
      });
      return {
        subscription: presentSubscription(await findSubscription(ctx.db, request.params.id)),
        plan_change: presentPlanChange(result),
      };
    },
  );

  app.post(
    "/subscriptions/:id/change-plan/cancel",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Cancel the plan change scheduled for the end of the period",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: {
          200: subscriptionSchema,
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
        },
      },
    },
    async (request) => {
      await cancelScheduledPlanChange(ctx, { subscriptionId: request.params.id, actor: actorOf(request) });
      return presentSubscription(await findSubscription(ctx.db, request.params.id));
    },
  );
}
