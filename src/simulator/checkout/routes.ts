import type { FastifyInstance, FastifyReply } from "fastify";
import type { CardInput } from "../cards/card-input.js";
import type { SimulatorCore } from "../core.js";
import type { CheckoutSession } from "./checkout-session.js";
import { PROBLEM_MESSAGES } from "./i18n.js";
import { checkoutFormPage, notFoundPage, resultPage } from "./page.js";
import { processCheckout, recordRedirect } from "./process-payment.js";

const HTML = "text/html; charset=utf-8";

/** The hosted checkout page and POST /_sim/pay, which does what submitting the page does. */
export function registerCheckoutRoutes(app: FastifyInstance, core: SimulatorCore): void {
  app.get<{ Params: { id: string } }>("/checkout/:id", (request, reply) => {
    const session = core.checkouts.find(request.params.id);
    if (!session) return reply.code(404).type(HTML).send(notFoundPage("en"));
    if (session.payment.status === "PENDING") {
      return reply.type(HTML).send(checkoutFormPage(session, merchantOf(core, session)));
    }
    return showFinished(core, session, reply);
  });

  app.post<{ Params: { id: string }; Body: CardInput }>("/checkout/:id", (request, reply) => {
    const session = core.checkouts.find(request.params.id);
    if (!session) return reply.code(404).type(HTML).send(notFoundPage("en"));
    const result = processCheckout(core, session, request.body ?? {});
    switch (result.kind) {
      case "invalid":
        return reply
          .code(422)
          .type(HTML)
          .send(checkoutFormPage(session, merchantOf(core, session), result.problem));
      case "finished":
        return showFinished(core, session, reply);
      case "processed":
        return reply.type(HTML).send(resultPage(session));
    }
  });

  app.post<{ Body: CardInput & { checkout_url?: unknown } }>("/_sim/pay", (request, reply) => {
    const body = request.body ?? {};
    const session = typeof body.checkout_url === "string" ? sessionOf(core, body.checkout_url) : undefined;
    if (!session)
      return reply.code(404).send({ error: "checkout_url does not name a checkout of this simulator" });
    const result = processCheckout(core, session, body);
    switch (result.kind) {
      case "invalid":
        return reply.code(422).send({ error: PROBLEM_MESSAGES[result.problem], field: result.problem });
      case "finished":
        return reply.code(409).send({
          error: "the checkout was already processed",
          status: session.payment.status,
          redirect_url: session.redirectUrl,
        });
      case "processed":
        return reply.send({ status: session.payment.status, redirect_url: session.redirectUrl });
    }
  });
}

/** A finished checkout opened again shows its result and sends the client on again (Events rule 4). */
function showFinished(core: SimulatorCore, session: CheckoutSession, reply: FastifyReply): FastifyReply {
  recordRedirect(core, session, "reopen");
  return reply.type(HTML).send(resultPage(session));
}

function merchantOf(core: SimulatorCore, session: CheckoutSession) {
  return core.merchants.byMerchantId(session.merchantId)!;
}

/** The checkout named by a checkout URL; only the path counts, so any host or public URL works. */
function sessionOf(core: SimulatorCore, checkoutUrl: string): CheckoutSession | undefined {
  const match = /\/checkout\/([^/?#]+)/.exec(checkoutUrl);
  return match ? core.checkouts.find(match[1]!) : undefined;
}
