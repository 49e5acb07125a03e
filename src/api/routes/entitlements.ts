import type { EngineContext } from "../../context/index.js";
import { customerEntitlements } from "../../entitlements/index.js";
import { policyOf } from "../../entitlements/settings.js";
import { notFound } from "../../problems/index.js";
import type { ApiApp } from "../context.js";
import { idParams, problemReplies } from "../schemas/common.js";
import { entitlementsSchema, presentEntitlements } from "../schemas/features.js";

/** What a customer may use now (docs/entitlements.md). */
export function entitlementRoutes(app: ApiApp, ctx: EngineContext): void {
  // Events this process records carry entitlements under this engine's grace (entitlements/settings.ts).
  policyOf(ctx.config);

  app.get(
    "/customers/:id/entitlements",
    {
      schema: {
        tags: ["entitlements"],
        summary: "What a customer may use now",
        description:
          "The features of the plans of the customer's trialing and active subscriptions, and of past_due ones for ENTITLEMENTS_PAST_DUE_GRACE_DAYS (default 7) from their charge's first failure; " +
          "a charge whose gateway outcome is not known yet never cuts a subscription off. Paused, unpaid, canceled and pending subscriptions grant nothing; archived features are left out. " +
          "Over several subscriptions a switch is on if any grants it and a limit is the largest (null: unlimited). " +
          "Answers are kept in the process for ENTITLEMENTS_CACHE_SECONDS (default 30), dropped when the process records a change; `as_of` says when the answer was computed. " +
          "Changes are also sent as the `entitlements.changed` webhook.",
        params: idParams,
        response: { 200: entitlementsSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const value = await customerEntitlements(ctx, request.params.id);
      if (!value) throw notFound("customer", request.params.id);
      return presentEntitlements(value);
    },
  );
}
