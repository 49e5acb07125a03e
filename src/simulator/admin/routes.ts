import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { toDuration, toInstant } from "../../clock/index.js";
import { SIMULATED_CARDS } from "../cards/simulated-cards.js";
import type { SimulatorCore } from "../core.js";
import { faultSchema } from "../faults/fault-registry.js";
import { send } from "../faults/run-operation.js";
import { applyDueLegacy } from "../legacy/delayed.js";
import { describeZodError } from "../support/zod-error.js";
import { addProduct } from "../v1/products.js";
import { isLedgerSection, ledger } from "./ledger.js";
import { registerMerchantRoutes } from "./merchant-routes.js";
import { registerTokenMintRoute } from "./mint-tokens.js";
import { registerRateRoutes } from "./rate-routes.js";

const clockSchema = z.union([
  z.object({ advance: z.string().min(1) }).strict(),
  z.object({ set: z.string().min(1) }).strict(),
]);

/** The simulator-only /_sim/* routes: merchants and their rate counters, reset, clock, faults, ledger, products and cards. */
export function registerAdminRoutes(app: FastifyInstance, core: SimulatorCore): void {
  registerMerchantRoutes(app, core);
  registerRateRoutes(app, core);
  registerTokenMintRoute(app, core);

  app.post("/_sim/reset", async () => {
    core.reset();
    // Forgetting on purpose forgets in the state file too, before the reply says it is done.
    await core.persistence?.flush();
    return { reset: true, default_api_key: core.merchants.defaultApiKey };
  });

  app.get("/_sim/clock", () => ({ now: core.clock.now().toISO() }));
  app.post("/_sim/clock", (request, reply) => {
    const parsed = clockSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      return reply.code(400).send({ error: 'send {"advance": ISO duration} or {"set": ISO timestamp}' });
    }
    try {
      if ("advance" in parsed.data) core.clock.advance(toDuration(parsed.data.advance));
      else core.clock.set(toInstant(parsed.data.set));
    } catch (error) {
      return reply.code(400).send({ error: (error as Error).message });
    }
    // Moving the clock can make held requests due, and re-arms the timer for the others.
    applyDueLegacy(core);
    return { now: core.clock.now().toISO() };
  });

  app.get("/_sim/faults", () => ({ faults: core.faults.list() }));
  app.post("/_sim/faults", (request, reply) => {
    const parsed = faultSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: describeZodError(parsed.error) });
    return reply.code(201).send(core.faults.add(parsed.data));
  });
  app.delete("/_sim/faults", () => {
    core.faults.clear();
    return { faults: [] };
  });
  app.delete<{ Params: { id: string } }>("/_sim/faults/:id", (request, reply) =>
    core.faults.removeById(Number(request.params.id))
      ? { removed: Number(request.params.id) }
      : reply.code(404).send({ error: "unknown fault id" }),
  );

  // ?only=payments (or any comma-separated sections) keeps a large ledger's answer small.
  app.get<{ Querystring: { only?: string } }>("/_sim/ledger", (request) =>
    ledger(core, request.query.only?.split(",").filter(isLedgerSection)),
  );
  app.get("/_sim/cards", () => ({ cards: SIMULATED_CARDS }));

  // The spec shows no product creation; tests add products here. The api_key header picks the
  // merchant (the default merchant without one).
  app.post("/_sim/products", (request, reply) => {
    const key = request.headers.api_key;
    const merchant = typeof key === "string" ? core.merchants.find(key) : core.merchants.defaultMerchant;
    if (!merchant) return reply.code(404).send({ error: "unknown api_key" });
    return send(reply, addProduct({ merchant, catalogue: core.catalogue, clock: core.clock }, request.body));
  });
}
