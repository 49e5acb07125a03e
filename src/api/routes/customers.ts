import type { EngineContext } from "../../context/index.js";
import { createCustomer, getCustomer, listCustomers, updateCustomer } from "../../customers/index.js";
import { createPortalLink } from "../../portal/index.js";
import { notFound } from "../../problems/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import {
  createCustomerBody,
  customerPage,
  customerSchema,
  portalLinkSchema,
  presentCustomer,
  updateCustomerBody,
} from "../schemas/catalog.js";
import { emptyBody, idParams, pageQuery, problemReplies } from "../schemas/common.js";

export function customerRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/customers",
    {
      schema: {
        tags: ["customers"],
        summary: "Create a customer (unique by e-mail)",
        description: "201 with the new customer; 200 with the existing one when the e-mail is already known.",
        headers: idempotencyHeaders,
        body: createCustomerBody,
        response: {
          200: customerSchema,
          201: customerSchema,
          400: problemReplies[400],
          401: problemReplies[401],
        },
      },
    },
    async (request, reply) => {
      const { customer, created } = await createCustomer(ctx, request.body, { actor: actorOf(request) });
      return reply.code(created ? 201 : 200).send(presentCustomer(customer));
    },
  );

  app.get(
    "/customers",
    {
      schema: {
        tags: ["customers"],
        summary: "List customers, oldest first",
        querystring: pageQuery,
        response: { 200: customerPage, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const { limit, starting_after } = request.query;
      const page = await listCustomers(ctx, { limit, after: starting_after });
      return { data: page.customers.map(presentCustomer), has_more: page.nextCursor !== null };
    },
  );

  app.get(
    "/customers/:id",
    {
      schema: {
        tags: ["customers"],
        summary: "Get a customer",
        params: idParams,
        response: { 200: customerSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const customer = await getCustomer(ctx, request.params.id);
      if (!customer) throw notFound("customer", request.params.id);
      return presentCustomer(customer);
    },
  );

  app.patch(
    "/customers/:id",
    {
      schema: {
        tags: ["customers"],
        summary: "Update a customer",
        description:
          "Changes only the fields given: name, phone, language, time_zone (an IANA zone; null for the billing time zone) and message_opt_outs (the whole list of message kinds the customer does not want). " +
          "An opt-out holds for messages of events recorded after it. The e-mail is not changed here.",
        params: idParams,
        body: updateCustomerBody,
        response: {
          200: customerSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
        },
      },
    },
    async (request) => {
      const customer = await updateCustomer(ctx, request.params.id, request.body, {
        actor: actorOf(request),
      });
      if (!customer) throw notFound("customer", request.params.id);
      return presentCustomer(customer);
    },
  );

  app.post(
    "/customers/:id/portal-link",
    {
      schema: {
        tags: ["customers"],
        summary: "A magic link into the customer portal",
        description:
          "201 with a link that opens the customer portal once, until `expires_at` (PORTAL_LINK_MINUTES on the billing clock). " +
          "There the customer sees their subscriptions, charges and invoices, updates their card, cancels at period end or keeps a pending cancellation. " +
          "Only the link's SHA-256 is stored: it cannot be shown again, so ask for a new one instead. 404 for an unknown customer.",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: {
          201: portalLinkSchema,
          401: problemReplies[401],
          404: problemReplies[404],
        },
      },
    },
    async (request, reply) => {
      const link = await createPortalLink(ctx, { customerId: request.params.id, actor: actorOf(request) });
      return reply.code(201).send({ url: link.url, expires_at: link.expiresAt.toUTC().toISO() ?? "" });
    },
  );
}
