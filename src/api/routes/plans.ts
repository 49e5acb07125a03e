import { planInputSchema, planUpdateSchema } from "../../billing/index.js";
import type { EngineContext } from "../../context/index.js";
import { archivePlan, createPlan, getPlan, listPlans, unarchivePlan, updatePlan } from "../../plans/index.js";
import { notFound } from "../../problems/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { planListQuery, planPage, planSchema, presentPlan } from "../schemas/catalog.js";
import { emptyBody, idParams, problemReplies } from "../schemas/common.js";

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

  app.patch(
    "/plans/:id",
    {
      schema: {
        tags: ["plans"],
        summary: "Update a plan",
        description:
          "Changes only the fields given, archived plan or not: `name`, `product_id` (null for none), and what subscriptions that start from now on get: `trial_days`, `collection_method`, `trial_without_card` (which needs trial_days of at least 1, as the plan is after the update). " +
          "Subscriptions already started keep their trial; one still waiting for its checkout gets the trial the plan has when the card is saved. " +
          "What subscriptions pay never changes: `amount`, `currency`, `price_model`, `tiers`, `package_size`, `interval`, `interval_count` and `billing_mode` are each refused by name in the 400 (create a plan with the new price and move subscriptions to it with change-plan). " +
          "A field sent with the value it has changes nothing. Recorded as `plan.updated` with each changed field's value before and after.",
        params: idParams,
        body: planUpdateSchema,
        response: {
          200: planSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
        },
      },
    },
    async (request) => {
      const plan = await updatePlan(ctx, request.params.id, request.body, { actor: actorOf(request) });
      if (!plan) throw notFound("plan", request.params.id);
      return presentPlan(plan);
    },
  );

  app.post(
    "/plans/:id/archive",
    {
      schema: {
        tags: ["plans"],
        summary: "Archive a plan: it takes no new subscriptions",
        description:
          "Enrolments, plan changes and the customer portal refuse it from then on (422 `plan_archived`); the subscriptions on it keep billing on it, and plan changes already scheduled onto it still happen. " +
          "It is listed only with `include_archived=true`. Archiving an archived plan changes nothing. Recorded as `plan.archived`.",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: { 200: planSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const plan = await archivePlan(ctx, { id: request.params.id, actor: actorOf(request) });
      if (!plan) throw notFound("plan", request.params.id);
      return presentPlan(plan);
    },
  );

  app.post(
    "/plans/:id/unarchive",
    {
      schema: {
        tags: ["plans"],
        summary: "Unarchive a plan: it takes new subscriptions again",
        description:
          "Unarchiving a plan that is not archived changes nothing. Recorded as `plan.unarchived`.",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: { 200: planSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const plan = await unarchivePlan(ctx, { id: request.params.id, actor: actorOf(request) });
      if (!plan) throw notFound("plan", request.params.id);
      return presentPlan(plan);
    },
  );
}
