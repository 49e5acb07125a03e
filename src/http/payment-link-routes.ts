import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { PAYMENT_LINK_PREFIX } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { readChargeOrderId } from "../enrollment/index.js";
import {
  acceptPayByLink,
  type CheckoutOutcome,
  openPaymentLink,
  paymentLinkFacts,
  settleCheckoutReturn,
  subscriptionDue,
} from "../payment-links/index.js";
import { CUSTOMER_PAGE_HEADERS } from "./customer-page.js";
import { type LinkPageKind, paymentLinkPage, subscriptionDuePage } from "./payment-link-page.js";
import { requestParams } from "./request-params.js";
import { resultPage } from "./result-page.js";

/**
 * The customer's side of a payment link (payment-links/):
 * - GET /pay/<charge>/<signature>: opens the link, answering 303 to the gateway's checkout, or a
 *   page saying the charge is paid, closed, or cannot be paid right now (nothing is taken by
 *   opening: a mail scanner's prefetch is harmless);
 * - GET|POST /pay/<charge>/<signature>/return: where the checkout sends the customer back (the v1
 *   success and failure URL); only its order_id is read, and CheckStatus decides what the page says.
 * - GET /pay/subscription/<id>/<signature>: a subscription's "what I owe" page, 303 to the payment
 *   link of its oldest charge waiting for one, or a page saying why there is none;
 * - POST /pay/enrollment/<id>/<signature>: the failed card-saving checkout's offer to pay by link
 *   taken (payment-links/pay-by-link-offer.ts), 303 to the subscription's "what I owe" page.
 * A wrong signature is a plain 404, as an unknown link.
 */
type Params = { chargeId: string; signature: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const OUTCOME_PAGE: Record<CheckoutOutcome, LinkPageKind> = {
  paid: "paid",
  duplicate: "paid",
  held: "paid",
  declined: "declined",
  pending: "pending",
  unavailable: "unavailable",
};

export function registerPaymentLinkRoutes(app: FastifyInstance, ctx: EngineContext): void {
  app.get<{ Params: Params; Querystring: { save_card?: string } }>(
    `${PAYMENT_LINK_PREFIX}/:chargeId/:signature`,
    async (request, reply) => {
      const { chargeId, signature } = request.params;
      if (!UUID.test(chargeId)) return notFound(reply);
      // ?save_card=1: the checkout also saves the card for automatic payments (v1 save_token).
      const saveCard = request.query.save_card === "1";
      const view = await openPaymentLink(ctx, chargeId, signature, { saveCard });
      if (view.kind === "not_found") return notFound(reply);
      if (view.kind === "checkout")
        return reply.code(303).header("cache-control", "no-store").redirect(view.url);
      return reply
        .code(view.kind === "unavailable" ? 503 : 200)
        .headers(CUSTOMER_PAGE_HEADERS)
        .send(paymentLinkPage(view.kind, view));
    },
  );

  const back = async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    const { chargeId, signature } = request.params;
    if (!UUID.test(chargeId)) return notFound(reply);
    const orderId = readChargeOrderId(requestParams(request.query, request.body));
    const outcome = await settleCheckoutReturn(ctx, chargeId, signature, orderId);
    const facts = outcome === "not_found" ? null : await paymentLinkFacts(ctx, chargeId, signature);
    if (outcome === "not_found" || !facts) return notFound(reply);
    return reply
      .code(outcome === "unavailable" ? 503 : 200)
      .headers(CUSTOMER_PAGE_HEADERS)
      .send(paymentLinkPage(OUTCOME_PAGE[outcome], facts));
  };
  app.route({
    method: ["GET", "POST"],
    url: `${PAYMENT_LINK_PREFIX}/:chargeId/:signature/return`,
    handler: back,
  });

  app.get<{ Params: { id: string; signature: string } }>(
    `${PAYMENT_LINK_PREFIX}/subscription/:id/:signature`,
    async (request, reply) => {
      const { id, signature } = request.params;
      if (!UUID.test(id)) return notFound(reply);
      const due = await subscriptionDue(ctx, id, signature);
      if (due.kind === "not_found") return notFound(reply);
      if (due.kind === "charge")
        return reply.code(303).header("cache-control", "no-store").redirect(due.link);
      return reply.headers(CUSTOMER_PAGE_HEADERS).send(subscriptionDuePage(due.kind, due.language));
    },
  );

  app.post<{ Params: { id: string; signature: string } }>(
    `${PAYMENT_LINK_PREFIX}/enrollment/:id/:signature`,
    async (request, reply) => {
      const { id, signature } = request.params;
      if (!UUID.test(id)) return notFound(reply);
      const due = await acceptPayByLink(ctx, id, signature);
      if (due === null) return notFound(reply);
      return reply.code(303).header("cache-control", "no-store").redirect(due);
    },
  );
}

function notFound(reply: FastifyReply) {
  return reply.code(404).headers(CUSTOMER_PAGE_HEADERS).send(resultPage("unconfirmed", "en"));
}
