import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SimulatorCore } from "../core.js";
import { merchantView } from "../merchants/merchant.js";
import {
  createMerchantSchema,
  patchMerchantSchema,
  settingsFromCreate,
  toSettings,
} from "../merchants/merchant-schema.js";
import { DuplicateApiKeyError } from "../merchants/merchant-store.js";
import { describeZodError } from "../support/zod-error.js";

type KeyRequest = FastifyRequest<{ Params: { api_key: string } }>;

/** Simulator-only merchant administration (the real service onboards merchants through support). */
export function registerMerchantRoutes(app: FastifyInstance, core: SimulatorCore): void {
  app.post("/_sim/merchants", (request, reply) => {
    const parsed = createMerchantSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: describeZodError(parsed.error) });
    try {
      const merchant = core.merchants.create(
        settingsFromCreate(parsed.data, core.defaultRateLimit),
        parsed.data.api_key,
      );
      return reply.code(201).send({ api_key: merchant.apiKey });
    } catch (error) {
      if (error instanceof DuplicateApiKeyError) return reply.code(409).send({ error: error.message });
      throw error;
    }
  });

  app.get("/_sim/merchants", () => ({ merchants: core.merchants.all().map(merchantView) }));

  app.get("/_sim/merchants/:api_key", (request: KeyRequest, reply) => {
    const merchant = core.merchants.find(request.params.api_key);
    return merchant ? merchantView(merchant) : reply.code(404).send({ error: "unknown api_key" });
  });

  const update = (request: KeyRequest, reply: FastifyReply) => {
    const merchant = core.merchants.find(request.params.api_key);
    if (!merchant) return reply.code(404).send({ error: "unknown api_key" });
    const parsed = patchMerchantSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: describeZodError(parsed.error) });
    return merchantView(core.merchants.update(merchant, toSettings(parsed.data)));
  };
  app.patch("/_sim/merchants/:api_key", update);
  app.post("/_sim/merchants/:api_key/settings", update);
}
