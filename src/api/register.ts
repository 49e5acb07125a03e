import type { FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { EngineContext } from "../context/index.js";
import { authenticate } from "./auth.js";
import { handleApiError, handleApiNotFound } from "./errors.js";
import { claimOrReplay, fingerprintRequest, recordResponse } from "./idempotency.js";
import { parseJsonBody } from "./json-body.js";
import { API_PREFIX, registerOpenApi } from "./openapi.js";
import { apiRateLimit } from "./rate-limit.js";
import { addonRoutes } from "./routes/addons.js";
import { chargeRoutes } from "./routes/charges.js";
import { couponRoutes } from "./routes/coupons.js";
import { customerRoutes } from "./routes/customers.js";
import { documentRoutes } from "./routes/documents.js";
import { dunningRoutes } from "./routes/dunning.js";
import { entitlementRoutes } from "./routes/entitlements.js";
import { featureRoutes } from "./routes/features.js";
import { invoiceRoutes } from "./routes/invoices.js";
import { messageRoutes } from "./routes/messages.js";
import { meterRoutes } from "./routes/meters.js";
import { oneOffChargeRoutes } from "./routes/one-off-charges.js";
import { planChangeRoutes } from "./routes/plan-changes.js";
import { planRoutes } from "./routes/plans.js";
import { refundRoutes } from "./routes/refunds.js";
import { subscriptionActionRoutes } from "./routes/subscription-actions.js";
import { subscriptionRoutes } from "./routes/subscriptions.js";
import { usageRoutes } from "./routes/usage.js";
import { usagePriceRoutes } from "./routes/usage-prices.js";
import { webhookEndpointRoutes } from "./routes/webhook-endpoints.js";
import { strictQuery } from "./strict-query.js";

/** Servers the API is mounted on, so that mounting twice is a no-op. */
const mounted = new WeakSet<FastifyInstance>();

/**
 * Mounts the merchant API on a server: the /v1 routes, /openapi.json and /docs. Call it before
 * the server is ready. Everything merchant-specific (zod validation, authentication,
 * idempotency, problem+json errors) is set inside the /v1 scope, so the rest of the server (the
 * gateway's callbacks, /healthz) keeps its own rules.
 *
 * Mounting twice on one server is a no-op, so a caller need not know whether buildServer already
 * mounted it.
 */
export function registerMerchantApi(app: FastifyInstance, ctx: EngineContext): void {
  if (mounted.has(app)) return;
  mounted.add(app);
  registerOpenApi(app, ctx.publicUrl);
  app.register(
    async (scope) => {
      const api = scope.withTypeProvider<ZodTypeProvider>();
      api.setValidatorCompiler(validatorCompiler);
      api.setSerializerCompiler(serializerCompiler);
      api.setErrorHandler(handleApiError);
      api.setNotFoundHandler(handleApiNotFound);
      api.addContentTypeParser("application/json", { parseAs: "buffer" }, parseJsonBody);
      // Before the routes: an onRoute hook sees only the routes added after it.
      api.addHook("onRoute", strictQuery);
      api.addHook("onRequest", authenticate(ctx));
      const rateLimit = apiRateLimit(scope, ctx.config);
      if (rateLimit) api.addHook("onRequest", rateLimit);
      api.addHook("preValidation", fingerprintRequest);
      api.addHook("preHandler", claimOrReplay(ctx));
      api.addHook("onSend", recordResponse(ctx));

      planRoutes(api, ctx);
      customerRoutes(api, ctx);
      subscriptionRoutes(api, ctx);
      subscriptionActionRoutes(api, ctx);
      planChangeRoutes(api, ctx);
      oneOffChargeRoutes(api, ctx);
      couponRoutes(api, ctx);
      addonRoutes(api, ctx);
      featureRoutes(api, ctx);
      entitlementRoutes(api, ctx);
      chargeRoutes(api, ctx);
      invoiceRoutes(api, ctx);
      refundRoutes(api, ctx);
      documentRoutes(api, ctx);
      messageRoutes(api, ctx);
      dunningRoutes(api, ctx);
      webhookEndpointRoutes(api, ctx);
      meterRoutes(api, ctx);
      usageRoutes(api, ctx);
      usagePriceRoutes(api, ctx);
    },
    { prefix: API_PREFIX },
  );
}
