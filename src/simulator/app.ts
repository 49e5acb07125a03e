import formbody from "@fastify/formbody";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from "fastify";
import { registerAdminRoutes } from "./admin/routes.js";
import { registerCheckoutRoutes } from "./checkout/routes.js";
import { SimulatorCore, type SimulatorOptions } from "./core.js";
import { LegacyCode } from "./legacy/codes.js";
import { applyDueLegacy } from "./legacy/delayed.js";
import { registerLegacyRoutes } from "./legacy/routes.js";
import { keepStateIn } from "./state/keep-state.js";
import { v1Error } from "./v1/errors.js";
import { registerV1Routes } from "./v1/routes.js";

export interface SimulatorApp {
  app: FastifyInstance;
  core: SimulatorCore;
}

const isLegacy = (request: FastifyRequest) => request.url.startsWith("/v3/");
const isV1 = (request: FastifyRequest) => /^\/(api\/)?v1\//.test(request.url);

/**
 * Builds the simulator's HTTP app (not listening yet): the v1 and v3 interfaces, the hosted checkout
 * page and the /_sim/* controls, all on one server.
 */
export function createSimulatorApp(options: SimulatorOptions = {}): SimulatorApp {
  const core = new SimulatorCore(options);
  // forceCloseConnections: close() destroys kept-alive and hanging sockets instead of waiting for them.
  const app = Fastify({ forceCloseConnections: true, bodyLimit: 1_048_576 });
  app.register(formbody);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) core.logger.error({ err: error, url: request.url }, "simulator error");
    // An unreadable legacy body is a bad request in legacy terms: HTTP 200 with result -10.
    if (isLegacy(request) && status < 500) return reply.code(200).send({ result: LegacyCode.badRequest });
    if (isLegacy(request) || isV1(request)) {
      const { status: code, body } = v1Error(status, error.message);
      return reply.code(code).send(body);
    }
    return reply.code(status).send({ error: error.message });
  });
  app.setNotFoundHandler((request, reply) => {
    if (isV1(request)) {
      const { body } = v1Error(404, "Not Found");
      return reply.code(404).send(body);
    }
    return reply.code(404).send({ error: `no route ${request.method} ${request.url}` });
  });

  // Held requests now due are applied before any request is handled, so every read sees them.
  app.addHook("onRequest", (_request, _reply, done) => {
    applyDueLegacy(core);
    done();
  });
  registerLegacyRoutes(app, core);
  registerV1Routes(app, core);
  registerCheckoutRoutes(app, core);
  registerAdminRoutes(app, core);
  app.addHook("onClose", async () => core.close());
  if (options.stateFile !== undefined) keepStateIn(app, core, options.stateFile, options.defaultApiKey);
  return { app, core };
}
