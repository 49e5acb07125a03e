import type { FastifyInstance } from "fastify";
import type { SimulatorCore } from "../core.js";
import { isDelayable } from "../faults/fault-registry.js";
import { runOperation } from "../faults/run-operation.js";
import { holdLegacy } from "./delayed.js";
import { LEGACY_OPERATIONS, runLegacy } from "./operations.js";

/** The v3 interface: POST with a form-encoded or JSON body; every reply is HTTP 200 with `result`. */
export function registerLegacyRoutes(app: FastifyInstance, core: SimulatorCore): void {
  for (const operation of LEGACY_OPERATIONS) {
    const hold = isDelayable(operation)
      ? (body: unknown, delayMs: number) => holdLegacy(core, operation, body, delayMs)
      : undefined;
    app.post(`/v3/${operation}`, (request, reply) =>
      runOperation(core, operation, request, reply, () => runLegacy(core, operation, request.body), hold),
    );
  }
}
