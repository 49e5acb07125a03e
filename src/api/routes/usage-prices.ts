import type { EngineContext } from "../../context/index.js";
import { ApiProblem, validationFailed } from "../../problems/index.js";
import {
  listUsagePrices,
  removeUsagePrice,
  setUsagePrice,
  setUsageThreshold,
  UsagePriceError,
  type UsagePriceErrorCode,
  UsagePriceInputError,
  usagePriceBody,
  usageThresholdBody,
} from "../../usage-billing/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idParams, problemReplies } from "../schemas/common.js";
import {
  presentUsagePrice,
  presentUsageThreshold,
  usagePriceList,
  usagePriceParams,
  usagePriceSchema,
  usageThresholdSchema,
} from "../schemas/usage-prices.js";

/** What a plan charges for metered usage, per meter (docs/usage.md, "Charging usage"). */

const PROBLEMS: Record<UsagePriceErrorCode, { status: number; code?: string; title: string }> = {
  plan_not_found: { status: 404, code: "not_found", title: "Resource not found" },
  meter_not_found: { status: 404, code: "not_found", title: "Resource not found" },
  meter_archived: { status: 422, title: "Meter is archived" },
  card_amount_fixed: { status: 422, title: "The card's amount is fixed" },
  usage_price_not_found: { status: 404, title: "Plan does not price this meter" },
};

/** The plan and the meter are in the path; a bad body field is named where it is. */
function problemOf(error: unknown): unknown {
  if (error instanceof UsagePriceInputError) {
    return validationFailed(
      error.issues.map((issue) => ({ field: issue.field, location: "body", message: issue.message })),
    );
  }
  if (!(error instanceof UsagePriceError)) return error;
  const { status, title, code = error.code } = PROBLEMS[error.code];
  const field = error.field === "plan_id" ? "id" : error.field;
  return new ApiProblem(status, code, title, error.message, {
    ...error.details,
    ...(field ? { errors: [{ field, location: "path", message: error.message }] } : {}),
  });
}

const WHEN =
  "Usage is charged after each period has closed (USAGE_GRACE_HOURS after its end, so late events are in), as a charge of its own (kind usage) with one line per priced meter; the period charge does not change. A price bills the periods that end after it was first set (billing clock); setting it again replaces it for the periods not billed yet.";

export function usagePriceRoutes(app: ApiApp, ctx: EngineContext): void {
  app.get(
    "/plans/:id/usage-prices",
    {
      schema: {
        tags: ["plans"],
        summary: "List what a plan charges for usage",
        description: `One price per meter, in meter code order, the order the usage charge's lines take. ${WHEN}`,
        params: idParams,
        response: { 200: usagePriceList, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const prices = await listUsagePrices(ctx, request.params.id).catch((error: unknown) => {
        throw problemOf(error);
      });
      return { data: prices.map(presentUsagePrice) };
    },
  );

  app.put(
    "/plans/:id/usage-prices/:meter",
    {
      schema: {
        tags: ["plans"],
        summary: "Price a meter's usage on a plan, or replace its price",
        description:
          `${WHEN} The body is a price as a plan's: \`price_model\` (default per_unit) with \`amount\` (per_unit, package, flat), \`tiers\` (tiered, volume) and \`package_size\` (package), amounts as decimal strings in the plan's currency; every offending field is listed in one 400. ` +
          "A plan with billing_mode recurring is a 422 `card_amount_fixed`: usage varies the amount; a recurring card token is charged the fixed amount it was enrolled for; use billing_mode autosave or payment links. " +
          "An archived meter is a 422 `meter_archived`; an unknown plan or meter a 404. Answers 201 when the price is new, 200 when it replaced one. Recorded as `plan.usage_price_set`.",
        params: usagePriceParams,
        body: usagePriceBody,
        response: {
          200: usagePriceSchema,
          201: usagePriceSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
          422: problemReplies[422],
        },
      },
    },
    async (request, reply) => {
      const { id, meter } = request.params;
      const set = await setUsagePrice(ctx, {
        planId: id,
        meter,
        input: request.body,
        actor: actorOf(request),
      }).catch((error: unknown) => {
        throw problemOf(error);
      });
      return reply.code(set.created ? 201 : 200).send(presentUsagePrice(set.usagePrice));
    },
  );

  app.delete(
    "/plans/:id/usage-prices/:meter",
    {
      schema: {
        tags: ["plans"],
        summary: "Stop charging a meter's usage on a plan",
        description:
          "The periods not billed yet are charged without it; usage charges already made keep their lines. A plan that does not price the meter is a 404 `usage_price_not_found`. Answered with the price as it was. Recorded as `plan.usage_price_removed`.",
        params: usagePriceParams,
        response: { 200: usagePriceSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const { id, meter } = request.params;
      const removed = await removeUsagePrice(ctx, { planId: id, meter, actor: actorOf(request) }).catch(
        (error: unknown) => {
          throw problemOf(error);
        },
      );
      return presentUsagePrice(removed);
    },
  );

  app.put(
    "/plans/:id/usage-threshold",
    {
      schema: {
        tags: ["plans"],
        summary: "Set or clear a plan's spending threshold (progressive billing)",
        description:
          "While a period is open, usage not yet billed is charged at once as a part of the period's usage (a usage charge with `usage_part` 1, 2, …) when it reaches `amount`, a decimal string in the plan's currency; the charge after the period closes bills the rest, so the parts and the close add up to the period's usage price exactly. Only prices that never fall as usage grows are billed in parts (not volume prices, not `last` meters: they wait for the close). `amount: null` bills usage at the close only. A plan with billing_mode recurring is a 422 `card_amount_fixed`. Recorded as `plan.usage_threshold_set`.",
        params: idParams,
        body: usageThresholdBody,
        response: {
          200: usageThresholdSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
          422: problemReplies[422],
        },
      },
    },
    async (request) => {
      const set = await setUsageThreshold(ctx, {
        planId: request.params.id,
        input: request.body,
        actor: actorOf(request),
      }).catch((error: unknown) => {
        throw problemOf(error);
      });
      return presentUsageThreshold(set);
    },
  );
}
