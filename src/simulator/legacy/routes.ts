import type { FastifyInstance } from "fastify";
import type { SimulatorCore } from "../core.js";
import { isDelayable } from "../faults/fault-registry.js";
import { runOperation } from "../faults/run-operation.js";
import { limitRate } from "../rate/limit-rate.js";
import { authenticateLegacy } from "./auth.js";
import { holdLegacy } from "./delayed.js";
import { LegacyFields } from "./fields.js";
import { LEGACY_OPERATIONS, runLegacy } from "./operations.js";

/**
 * The v3 interface: POST with a form-encoded or JSON body; every reply is HTTP 200 with `result`,
 * except a merchant's call over its rate limit (429, see rate/limit-rate.ts).
 */
export function registerLegacyRoutes(app: FastifyInstance, core: SimulatorCore): void {
  for (const operation of LEGACY_OPERATIONS) {
    const hold = isDelayable(operation)
      ? (body: unknown, delayMs: number) => holdLegacy(core, operation, body, delayMs)
      : undefined;
    app.post(`/v3/${operation}`, (request, reply) => {
      // Only the rate limit looks at the token here; runLegacy authenticates again, since a held
      // request runs later from its body alone (and is not counted twice).
      const auth = authenticateLegacy(core, new LegacyFields(request.body));
      return limitRate(core, "merchant" in auth ? auth.merchant : undefined, reply, () =>
        runOperation(core, operation, request, reply, () => runLegacy(core, operation, request.body), hold),
      );
    });
  }
}
