import { planInputSchema } from "../../billing/index.js";
import type { EngineContext } from "../../context/index.js";
import { createPlan, getPlan, listPlans } from "../../plans/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { notFound } from "../problem.js";
import { planListQuery, planPage, planSchema, presentPlan } from "../schemas/catalog.js";
import { idParams, problemReplies } from "../schemas/common.js";

export function planRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/plans",
    {
      schema: {
        tags: ["plans"],
        summary: "Create a plan",
        description:
          "The currency must be one the gateway account takes (GATEWAY_CURRENCIES, default QAR); the amount is a decimal string with at most the currency's decimals and nothing around it. Every offending field is listed in one 400. " +
          "`collection_method` is how its subscriptions pay unless they say otherwise (default charge_automatically); `trial_without_card` (needs trial_days of at least 1) starts them without a card, paying by payment link. " +
          "`price_model` (default flat) says how a period's price grows with the subscription's quantity: flat and per_unit take `amount` (the price of a period, of a unit); package takes `amount` (the price of a package) and `package_size`; tiered (graduated) and volume take `tiers` instead of an amount, ascending by `up_to` with the last one open (`up_to: null`), each with a decimal `unit_amount` (may be \"0\") and an optional `flat_amount`. " +
          'Any model but flat needs `billing_mode: "autosave"`: a recurring card token is charged the fixed amount it was enrolled for.',
        headers: idempotencyHeaders,
        // The input side of the billing schema: every field, the amount against its currency and
        // the currency against GATEWAY_CURRENCIES are checked here, all reported in one 400.
        body: planInputSchema({ currencies: ctx.config.GATEWAY_CURRENCIES }).in,
        response: { 201: planSchema, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request, reply) => {
      const plan = await createPlan(ctx, request.body, { actor: actorOf(request) });
      return reply.code(201).send(presentPlan(plan));
    },
  );

  app.get(
    "/plans",
    {
      schema: {
        tags: ["plans"],
        summary: "List plans, oldest first",
        querystring: planListQuery,
        response: { 200: planPage, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const { limit, starting_after, include_archived } = request.query;
      const page = await listPlans(ctx, { limit, after: starting_after, includeArchived: include_archived });
      return { data: page.plans.map(presentPlan), has_more: page.nextCursor !== null };
    },
  );

  app.get(
    "/plans/:id",
    {
      schema: {
        tags: ["plans"],
        summary: "Get a plan",
        params: idParams,
        response: { 200: planSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const plan = await getPlan(ctx, request.params.id);
      if (!plan) throw notFound("plan", request.params.id);
      return presentPlan(plan);
    },
  );
}
