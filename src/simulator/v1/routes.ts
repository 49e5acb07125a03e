import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimulatorCore } from "../core.js";
import { runOperation } from "../faults/run-operation.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import type { SimReply } from "../types.js";
import { authenticateApiKey, authenticateBearer, requireJson } from "./auth.js";
import { authorize } from "./authorize.js";
import { checkoutV1 } from "./checkout.js";
import { createInvoice } from "./invoices.js";
import { listProducts } from "./products.js";
import { refundV1 } from "./refund.js";

interface Guard {
  credential: "api_key" | "bearer";
  /** Whether the operation requires a JSON body. */
  json: boolean;
}

/** Authentication first (401), then the content type (415), then the operation. */
function guarded(
  core: SimulatorCore,
  request: FastifyRequest,
  guard: Guard,
  run: (merchant: MerchantAccount) => SimReply,
) {
  return (): SimReply => {
    const authenticated =
      guard.credential === "api_key" ? authenticateApiKey(core, request) : authenticateBearer(core, request);
    if ("failure" in authenticated) return authenticated.failure;
    return (guard.json ? requireJson(request) : undefined) ?? run(authenticated.merchant);
  };
}

const API_KEY_JSON: Guard = { credential: "api_key", json: true };
const BEARER_JSON: Guard = { credential: "bearer", json: true };

/** The v1 interface: checkout and refund (api_key), Authorize, and the bearer-protected invoices and products. */
export function registerV1Routes(app: FastifyInstance, core: SimulatorCore): void {
  app.post("/v1/payments/checkout", (request, reply) =>
    runOperation(
      core,
      "checkout",
      request,
      reply,
      guarded(core, request, API_KEY_JSON, (merchant) => checkoutV1(core, merchant, request.body)),
    ),
  );
  // One sample request of the spec puts an extra `api` segment before v1; both paths work.
  for (const path of ["/v1/payments/refund", "/api/v1/payments/refund"]) {
    app.post(path, (request, reply) =>
      runOperation(
        core,
        "refund_v1",
        request,
        reply,
        guarded(core, request, API_KEY_JSON, (merchant) => refundV1(core, merchant, request.body)),
      ),
    );
  }
  app.post("/v1/Authorization/Authorize", (request, reply) =>
    runOperation(
      core,
      "Authorize",
      request,
      reply,
      guarded(core, request, { credential: "api_key", json: false }, (merchant) => authorize(core, merchant)),
    ),
  );
  app.post("/v1/invoices", (request, reply) =>
    runOperation(
      core,
      "invoices",
      request,
      reply,
      guarded(core, request, BEARER_JSON, (merchant) =>
        createInvoice(
          {
            merchant,
            clock: core.clock,
            store: core.invoices,
            catalogue: core.catalogue,
            baseUrl: `${core.publicUrl}/invoices`,
          },
          request.body,
        ),
      ),
    ),
  );
  // The spec lists Content-Type as required on this GET too; a GET has no body, so it is not enforced.
  app.get("/v1/products", (request, reply) =>
    runOperation(
      core,
      "products",
      request,
      reply,
      guarded(core, request, { credential: "bearer", json: false }, (merchant) =>
        listProducts(
          { merchant, catalogue: core.catalogue },
          request.query as Record<string, string | undefined>,
        ),
      ),
    ),
  );
}
