import type { EngineContext } from "../../context/index.js";
import { createCustomer, getCustomer, listCustomers } from "../../customers/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { notFound } from "../problem.js";
import { createCustomerBody, customerPage, customerSchema, presentCustomer } from "../schemas/catalog.js";
import { idParams, pageQuery, problemReplies } from "../schemas/common.js";

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
}
