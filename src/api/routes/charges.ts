import { reconcileHeldCharge } from "../../charging/index.js";
import type { EngineContext } from "../../context/index.js";
import { retryCharge } from "../../dunning/index.js";
import { refundCharge } from "../../refunds/index.js";
import { findCharge, listCharges } from "../../resources/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { chargeListQuery, chargePage, chargeSchema, presentCharge } from "../schemas/charges.js";
import { emptyBody, idParams, problemReplies } from "../schemas/common.js";
import {
  chargeReconcileSchema,
  chargeRetrySchema,
  reconcileDetail,
  resultDetail,
} from "../schemas/dunning.js";
import { presentRefund, refundSchema } from "../schemas/refunds.js";

export function chargeRoutes(app: ApiApp, ctx: EngineContext): void {
  app.get(
    "/charges",
    {
      schema: {
        tags: ["charges"],
        summary: "List charges, oldest first",
        querystring: chargeListQuery,
        response: { 200: chargePage, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const page = await listCharges(ctx.db, request.query);
      return { data: page.data.map((row) => presentCharge(row, ctx)), has_more: page.has_more };
    },
  );

  app.get(
    "/charges/:id",
    {
      schema: {
        tags: ["charges"],
        summary: "Get a charge",
        params: idParams,
        response: { 200: chargeSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => presentCharge(await findCharge(ctx.db, request.params.id), ctx),
  );

  app.post(
    "/charges/:id/retry",
    {
      schema: {
        tags: ["charges"],
        summary: "Collect a retrying or uncollectible charge now",
        description:
          "200 with the outcome of the attempt; 202 when the gateway's answer is not known yet (the engine keeps reconciling the charge and never charges it twice).",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: {
          200: chargeRetrySchema,
          202: chargeRetrySchema,
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
          422: problemReplies[422],
        },
      },
    },
    async (request, reply) => {
      const { result, charge } = await retryCharge(ctx, request.params.id);
      return reply.code(result.kind === "pending" ? 202 : 200).send({
        outcome: result.kind,
        detail: resultDetail(result),
        checkout_url: result.kind === "token_unusable" ? result.checkoutUrl : null,
        charge: presentCharge(charge, ctx),
      });
    },
  );

  app.post(
    "/charges/:id/reconcile",
    {
      schema: {
        tags: ["charges"],
        summary: "Settle a charge held for review from the gateway's status of its attempt",
        description:
          "Asks CheckStatus once more about the attempt whose outcome stayed unknown, and settles it: paid, declined (dunning continues), or released (never reached the gateway; the charge is due again and the next billing tick collects it). Never charges the card itself. 422 charge_not_held when the charge is not in needs_review with such an attempt.",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: {
          200: chargeReconcileSchema,
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
          422: problemReplies[422],
        },
      },
    },
    async (request) => {
      const result = await reconcileHeldCharge(ctx, request.params.id, { actor: actorOf(request) });
      const charge = await findCharge(ctx.db, request.params.id);
      return { outcome: result.outcome, detail: reconcileDetail(result), charge: presentCharge(charge, ctx) };
    },
  );

  app.post(
    "/charges/:id/refund",
    {
      schema: {
        tags: ["charges"],
        summary: "Refund a paid charge in full",
        description:
          "200 when the gateway answered (completed or under_processing); 202 when its answer was lost (refund_status unknown).",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: {
          200: refundSchema,
          202: refundSchema,
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
          422: problemReplies[422],
        },
      },
    },
    async (request, reply) => {
      const refund = await refundCharge(ctx, { chargeId: request.params.id, actor: actorOf(request) });
      return reply.code(refund.status === "unknown" ? 202 : 200).send(presentRefund(refund));
    },
  );
}
