import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import type { EngineContext } from "../context/index.js";
import {
  applyGatewayCallback,
  type CallbackContext,
  type CallbackSource,
  GATEWAY_CALLBACK_PATHS,
  type GatewayCallbackResult,
  PaymentVerificationUnavailableError,
  readChargeOrderId,
} from "../enrollment/index.js";
import { payByLinkOffer, settleCheckoutOrder } from "../payment-links/index.js";
import { CUSTOMER_PAGE_HEADERS } from "./customer-page.js";
import { requestParams } from "./request-params.js";
import { type ResultPageKind, resultPage } from "./result-page.js";

/**
 * The customer's return from the checkout (GET, or POST from some pages) and the gateway's webhook
 * (GET with a query string in practice; POST with a form or JSON body also accepted). Each is one
 * call of applyGatewayCallback, which trusts nothing in the request but the order id.
 */
export function registerGatewayRoutes(
  app: FastifyInstance,
  ctx: CallbackContext & Pick<EngineContext, "dunning" | "publicUrl">,
): void {
  const browserReturn = (source: CallbackSource) => async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const result = await applyGatewayCallback(ctx, { source, params: paramsOf(request) });
      const kind = pageKind(result);
      // A card that could not be saved (a Qatar debit card cannot recur) need not be a dead end.
      const byLink =
        kind === "failure" && result.enrollmentId ? await payByLinkOffer(ctx, result.enrollmentId) : null;
      // An order id we do not know gets no page of its own: a plain "not found".
      const status = kind === "unconfirmed" && result.enrollmentId === undefined ? 404 : 200;
      return reply
        .code(status)
        .headers(CUSTOMER_PAGE_HEADERS)
        .send(resultPage(kind, result.language ?? "en", result.returnUrl, byLink ?? undefined));
    } catch (error) {
      const unavailable = error instanceof PaymentVerificationUnavailableError;
      if (!unavailable) request.log.error({ err: error, source }, "gateway return could not be applied");
      return reply
        .code(unavailable ? 503 : 500)
        .headers(CUSTOMER_PAGE_HEADERS)
        .send(resultPage("unavailable", "en"));
    }
  };

  const webhook = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      // A payment link's checkout (orderId chg_<charge>_<n>): CheckStatus settles it.
      const chargeOrder = readChargeOrderId(paramsOf(request));
      if (chargeOrder !== null) {
        const outcome = await settleCheckoutOrder(ctx, chargeOrder);
        if (outcome === "unavailable") return reply.code(503).type("text/plain").send("unavailable");
        return reply.type("text/plain").send(outcome === null ? "ignored" : "ok");
      }
      const result = await applyGatewayCallback(ctx, { source: "webhook", params: paramsOf(request) });
      // 200 even when ignored: a forged or early call must not make the gateway retry forever.
      return reply.type("text/plain").send(result.outcome === "ignored" ? "ignored" : "ok");
    } catch (error) {
      if (!(error instanceof PaymentVerificationUnavailableError)) throw error;
      return reply.code(503).type("text/plain").send("unavailable");
    }
  };

  const methods: HTTPMethods[] = ["GET", "POST"];
  app.route({
    method: methods,
    url: GATEWAY_CALLBACK_PATHS.success,
    handler: browserReturn("success_return"),
  });
  app.route({
    method: methods,
    url: GATEWAY_CALLBACK_PATHS.failure,
    handler: browserReturn("failure_return"),
  });
  app.route({ method: methods, url: GATEWAY_CALLBACK_PATHS.webhook, handler: webhook });
}

function paramsOf(request: FastifyRequest): Record<string, string> {
  return requestParams(request.query, request.body);
}

/** What the customer is told: the enrollment's state in our records, whichever URL they came back on. */
function pageKind(result: GatewayCallbackResult): ResultPageKind {
  if (result.status === "completed") return "success";
  if (result.status === "failed") return "failure";
  return "unconfirmed";
}
