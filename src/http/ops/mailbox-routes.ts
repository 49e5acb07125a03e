import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { permits } from "../../apikeys/index.js";
import { MESSAGE_KINDS, MESSAGE_STATUSES } from "../../billing/index.js";
import type { EngineContext } from "../../context/index.js";
import { getMessage, listMessages, resendMessage } from "../../messages/index.js";
import type { OpsSession } from "../../sessions/index.js";
import { mailboxPage } from "./mailbox-page.js";
import { messageNotice, messagePage } from "./message-page.js";

/**
 * The mailbox under /ops/messages, inside the ops scope (routes.ts: session, CSRF, strict headers):
 * the list, one message, and its Resend button. Resending is the API's POST
 * /v1/messages/:id/resend, so a key may resend here exactly when it may there; the actor recorded
 * is the session's key (ops:<key id>).
 */

const PAGE_SIZE = 50;
const RESEND_OPERATION = "/v1/messages/:id/resend";

/**
 * The message page's policy: the ops one, but with inline styles and images from anywhere. A srcdoc
 * frame lives under its parent's policy, and e-mail HTML is styled inline and shows the merchant's
 * logo; scripts stay shut (and the frame's sandbox forbids them anyway). The page itself has no
 * inline style, and everything in it is escaped.
 */
const MESSAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const mailboxQuery = z.object({
  status: z.enum(MESSAGE_STATUSES).optional(),
  kind: z.enum(MESSAGE_KINDS).optional(),
  customer: z.uuid().optional(),
  after: z.uuid().optional(),
});

const HTML = "text/html; charset=utf-8";
const isId = (id: string) => z.uuid().safeParse(id).success;

export function registerMailboxRoutes(ops: FastifyInstance, ctx: EngineContext): void {
  const smtp = ctx.config.SMTP_URL !== undefined;
  const canResend = (session: OpsSession) => permits(session, "POST", RESEND_OPERATION);

  ops.get("/messages", async (request, reply) => {
    const parsed = mailboxQuery.safeParse(request.query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return reply
        .code(400)
        .type("text/plain")
        .send(`${issue?.path.join(".")}: ${issue?.message}`);
    }
    const filter = parsed.data;
    const page = await listMessages(ctx.db, {
      customerId: filter.customer,
      status: filter.status,
      kind: filter.kind,
      cursor: filter.after,
      limit: PAGE_SIZE,
    });
    const session = request.opsSession as OpsSession;
    return reply.type(HTML).send(mailboxPage({ page, filter, session, smtp }));
  });

  ops.get(
    "/messages/:id",
    {
      onSend: async (_request, reply) => {
        reply.header("content-security-policy", MESSAGE_CSP);
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const message = await getMessage(ctx.db, id);
      if (!message) return reply.code(404).type("text/plain").send("no such message");
      const session = request.opsSession as OpsSession;
      const notice = messageNotice((request.query as Record<string, unknown>).done);
      return reply
        .type(HTML)
        .send(messagePage({ message, session, canResend: canResend(session), smtp, notice }));
    },
  );

  ops.post("/messages/:id/resend", async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!isId(id)) return reply.code(404).type("text/plain").send("no such message");
    const session = request.opsSession as OpsSession;
    if (!canResend(session)) {
      return reply.code(403).type("text/plain").send("this API key may not resend messages");
    }
    const copy = await resendMessage(ctx, id, `ops:${session.apiKeyId}`);
    if (!copy) return reply.code(404).type("text/plain").send("no such message");
    return reply.code(303).header("location", `/ops/messages/${copy.id}?done=resent`).send();
  });
}
