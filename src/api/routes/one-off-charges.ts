import { z } from "zod";
import type { EngineContext } from "../../context/index.js";
import {
  cancelOneOffCharge,
  createOneOffCharge,
  listOneOffCharges,
  type OneOffCharge,
  oneOffBody,
} from "../../one-off-charges/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { emptyBody, idParams, moneySchema, presentMoney, problemReplies } from "../schemas/common.js";

const oneOffSchema = z
  .object({
    id: z.uuid(),
    subscription_id: z.uuid(),
    description: z.string(),
    unit_amount: moneySchema,
    quantity: z.number().int(),
    amount: moneySchema.describe("unit_amount × quantity"),
    collect: z.enum(["now", "next_bill"]),
    charge_id: z
      .uuid()
      .nullable()
      .describe("The charge that bills it: its own (now) or the next period's; null while it waits"),
    status: z.enum(["waiting", "billed", "canceled"]),
  })
  .meta({ id: "OneOffCharge" });

function present(item: OneOffCharge & { canceled?: boolean }): z.infer<typeof oneOffSchema> {
  const money = (minor: number) => presentMoney(minor, item.currency);
  return {
    id: item.id,
    subscription_id: item.subscriptionId,
    description: item.description,
    unit_amount: money(item.unitAmountMinor),
    quantity: item.quantity,
    amount: money(item.unitAmountMinor * item.quantity),
    collect: item.collect,
    charge_id: item.chargeId,
    status: item.canceled ? "canceled" : item.chargeId ? "billed" : "waiting",
  };
}

const oneOffParams = z.object({ id: z.uuid(), one_off_id: z.uuid() });

/** Charging a subscription's customer once: now as a charge of its own, or on the next bill. */
export function oneOffChargeRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/subscriptions/:id/one-off-charges",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Charge once: a set-up fee, an overage, a service",
        description:
          "`collect: now` writes a charge of its own (kind one_off), collected at once like any charge (card, or payment link for a subscription paying by link), with dunning; " +
          "`collect: next_bill` adds it as a line of the next period's charge (GET …/upcoming shows it), cancelable until then. " +
          "The amount is per unit in the subscription's currency, exactly (more decimals than the currency has is refused). " +
          "Refused: a subscription charged through a recurring card token (422 `card_amount_fixed`: the gateway charges it only the amount it was enrolled for), " +
          "one that is not trialing or active (409; next_bill also takes a past_due one).",
        params: idParams,
        headers: idempotencyHeaders,
        body: oneOffBody,
        response: {
          201: oneOffSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
          422: problemReplies[422],
        },
      },
    },
    async (request, reply) => {
      const created = await createOneOffCharge(ctx, {
        subscriptionId: request.params.id,
        body: request.body,
        actor: actorOf(request),
      });
      return reply.code(201).send(present(created));
    },
  );

  app.get(
    "/subscriptions/:id/one-off-charges",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "List a subscription's one-off charges, newest first",
        params: idParams,
        response: { 200: z.object({ data: z.array(oneOffSchema) }), 401: problemReplies[401] },
      },
    },
    async (request) => ({ data: (await listOneOffCharges(ctx, request.params.id)).map(present) }),
  );

  app.post(
    "/subscriptions/:id/one-off-charges/:one_off_id/cancel",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Cancel a one-off charge still waiting for the next bill",
        description: "One already billed is refused (409 `one_off_not_waiting`): refund its charge instead.",
        params: oneOffParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: {
          200: oneOffSchema,
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
        },
      },
    },
    async (request) => {
      const canceled = await cancelOneOffCharge(ctx, {
        subscriptionId: request.params.id,
        oneOffId: request.params.one_off_id,
      });
      return present({ ...canceled, canceled: true });
    },
  );
}
