import type { EngineContext } from "../../context/index.js";
import { getCustomer } from "../../customers/index.js";
import { getMessage, listMessages, resendMessage } from "../../messages/index.js";
import { notFound } from "../../problems/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { emptyBody, idParams, problemReplies } from "../schemas/common.js";
import {
  messageDetailSchema,
  messageListQuery,
  messagePage,
  presentMessage,
  presentMessageDetail,
} from "../schemas/messages.js";

/** The e-mails sent to customers: a customer's, newest first; one with its bodies; sending one again. */
export function messageRoutes(app: ApiApp, ctx: EngineContext): void {
  app.get(
    "/customers/:id/messages",
    {
      schema: {
        tags: ["messages"],
        summary: "List a customer's messages, newest first",
        params: idParams,
        querystring: messageListQuery,
        response: {
          200: messagePage,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await getCustomer(ctx, id))) throw notFound("customer", id);
      const { limit, starting_after, status, kind } = request.query;
      const page = await listMessages(ctx.db, {
        customerId: id,
        status,
        kind,
        limit,
        cursor: starting_after,
      });
      return { data: page.messages.map(presentMessage), has_more: page.nextCursor !== null };
    },
  );

  app.get(
    "/messages/:id",
    {
      schema: {
        tags: ["messages"],
        summary: "Get a message with its subject, text and HTML",
        params: idParams,
        response: { 200: messageDetailSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const message = await getMessage(ctx.db, request.params.id);
      if (!message) throw notFound("message", request.params.id);
      return presentMessageDetail(message);
    },
  );

  app.post(
    "/messages/:id/resend",
    {
      schema: {
        tags: ["messages"],
        summary: "Send a message again",
        description:
          "201 with a new pending message naming the one it repeats (resend_of) and who asked (requested_by), addressed to the customer's e-mail as it is now. " +
          "It is rendered afresh and sent by the message worker like any other. The original is left as it was.",
        params: idParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: {
          201: messageDetailSchema,
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
        },
      },
    },
    async (request, reply) => {
      const copy = await resendMessage(ctx, request.params.id, actorOf(request));
      if (!copy) throw notFound("message", request.params.id);
      return reply.code(201).send(presentMessageDetail(copy));
    },
  );
}
