import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SimulatorCore } from "../core.js";
import type { FaultOperation } from "../faults/fault-registry.js";
import { runOperation } from "../faults/run-operation.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import { limitRate } from "../rate/limit-rate.js";
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

type Run = (request: FastifyRequest, merchant: MerchantAccount) => SimReply;

/**
 * One v1 route: the merchant's rate limit (429) before anything, then the operation under its
 * faults: authentication (401), then the content type (415), then the operation itself. The
 * credential is read on arrival, so the rate limit knows whose call it is.
 */
function v1Route(core: SimulatorCore, operation: FaultOperation, guard: Guard, run: Run) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const authenticated =
      guard.credential === "api_key" ? authenticateApiKey(core, request) : authenticateBearer(core, request);
    const merchant = "merchant" in authenticated ? authenticated.merchant : undefined;
    return limitRate(core, merchant, reply, () =>
      runOperation(core, operation, request, reply, () => {
        if ("failure" in authenticated) return authenticated.failure;
        return (guard.json ? requireJson(request) : undefined) ?? run(request, authenticated.merchant);
      }),
    );
  };
}

const API_KEY_JSON: Guard = { credential: "api_key", json: true };
const BEARER_JSON: Guard = { credential: "bearer", json: true };

/** The v1 interface: checkout and refund (api_key), Authorize, and the bearer-protected invoices and products. */
export function registerV1Routes(app: FastifyInstance, core: SimulatorCore): void {
  app.post(
    "/v1/payments/checkout",
    v1Route(core, "checkout", API_KEY_JSON, (request, merchant) => checkoutV1(core, merchant, request.body)),
  );
  // One sample request of the spec puts an extra `api` segment before v1; both paths work.
  for (const path of ["/v1/payments/refund", "/api/v1/payments/refund"]) {
    app.post(
      path,
      v1Route(core, "refund_v1", API_KEY_JSON, (request, merchant) => refundV1(core, merchant, request.body)),
    );
  }
  app.post(
    "/v1/Authorization/Authorize",
    v1Route(core, "Authorize", { credential: "api_key", json: false }, (_request, merchant) =>
      authorize(core, merchant),
    ),
  );
  app.post(
    "/v1/invoices",
    v1Route(core, "invoices", BEARER_JSON, (request, merchant) =>
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
  );
  // The spec lists Content-Type as required on this GET too; a GET has no body, so it is not enforced.
  app.get(
    "/v1/products",
    v1Route(core, "products", { credential: "bearer", json: false }, (request, merchant) =>
      listProducts(
        { merchant, catalogue: core.catalogue },
        request.query as Record<string, string | undefined>,
      ),
    ),
  );
}
