import type { FastifyInstance } from "fastify";
import { registerMerchantApi } from "../api/index.js";
import type { EngineContext } from "../context/index.js";
import {
  type BuildServerOptions,
  createHttpServer,
  listenServer,
  type RunningServer,
  registerDocumentRoutes,
  registerGatewayRoutes,
  registerHealthRoutes,
  registerMetricsRoutes,
  registerNewCardRoutes,
  registerOpsRoutes,
  registerPaymentLinkRoutes,
  registerPortalRoutes,
  type StartServerOptions,
} from "../http/index.js";
import { registerIndexRoutes } from "./index-routes.js";

/**
 * The engine's HTTP server: the pages of src/http and the merchant API of src/api on one Fastify
 * instance, composed here because neither edge imports the other. Each area registers its routes
 * from its own module (registerXRoutes(app, ctx)); add new ones here, in this order.
 */
export function buildServer(ctx: EngineContext, options: BuildServerOptions = {}): FastifyInstance {
  const app = createHttpServer(ctx, options);
  registerIndexRoutes(app);
  registerHealthRoutes(app, ctx);
  registerGatewayRoutes(app, ctx);
  registerNewCardRoutes(app, ctx);
  registerPaymentLinkRoutes(app, ctx);
  registerDocumentRoutes(app, ctx);
  registerMerchantApi(app, ctx);
  registerOpsRoutes(app, ctx);
  registerPortalRoutes(app, ctx);
  registerMetricsRoutes(app, ctx);
  return app;
}

/** The server, listening at HOST and PORT unless `options` say otherwise. */
export function startServer(ctx: EngineContext, options: StartServerOptions = {}): Promise<RunningServer> {
  return listenServer(buildServer(ctx, options), ctx.config, options);
}
