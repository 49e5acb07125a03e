import type { FastifyReply } from "fastify";
import type { EngineContext } from "../../context/index.js";
import {
  findCreditNote,
  findReceipt,
  type IssuedDocument,
  printDocument,
} from "../../customer-documents/index.js";
import type { DocumentLanguage } from "../../documents/index.js";
import { notFound } from "../../problems/index.js";
import type { ApiApp } from "../context.js";
import { idParams, problemReplies } from "../schemas/common.js";
import {
  creditNoteSchema,
  documentPdfQuery,
  pdfReply,
  presentCreditNote,
  presentReceipt,
  receiptSchema,
} from "../schemas/documents.js";

/**
 * A paid charge's receipt and an accepted refund's credit note, as JSON with their signed links, and
 * as the PDF the customer gets (`….pdf`, in the language RECEIPT_BILINGUAL or the customer's gives,
 * or ?lang=).
 */
export function documentRoutes(app: ApiApp, ctx: EngineContext): void {
  const sendPdf = async (reply: FastifyReply, document: IssuedDocument, lang?: DocumentLanguage) => {
    const printed = await printDocument(ctx, document.kind, document.id, "pdf", lang);
    if (!printed) throw notFound(document.kind.replace("_", " "), document.id);
    return reply
      .type(printed.contentType)
      .header("content-disposition", `inline; filename="${printed.number}.pdf"`)
      .header("cache-control", "private")
      .send(printed.body);
  };
  const noDocument = (what: string) => ({
    ...problemReplies[404],
    description: `No such ${what}, or none issued to it yet (code *_not_issued, naming its state)`,
  });

  app.get(
    "/charges/:id/receipt",
    {
      schema: {
        tags: ["charges"],
        summary: "Get a paid charge's receipt",
        params: idParams,
        response: { 200: receiptSchema, 401: problemReplies[401], 404: noDocument("charge") },
      },
    },
    async (request) => presentReceipt(await findReceipt(ctx.db, request.params.id), ctx),
  );

  app.get(
    "/charges/:id/receipt.pdf",
    {
      schema: {
        tags: ["charges"],
        summary: "A paid charge's receipt as a PDF",
        params: idParams,
        querystring: documentPdfQuery,
        response: {
          200: pdfReply,
          400: problemReplies[400],
          401: problemReplies[401],
          404: noDocument("charge"),
        },
      },
    },
    async (request, reply) =>
      sendPdf(reply, await findReceipt(ctx.db, request.params.id), request.query.lang),
  );

  app.get(
    "/refunds/:id/credit-note",
    {
      schema: {
        tags: ["refunds"],
        summary: "Get a refund's credit note",
        params: idParams,
        response: { 200: creditNoteSchema, 401: problemReplies[401], 404: noDocument("refund") },
      },
    },
    async (request) => presentCreditNote(await findCreditNote(ctx.db, request.params.id), ctx),
  );

  app.get(
    "/refunds/:id/credit-note.pdf",
    {
      schema: {
        tags: ["refunds"],
        summary: "A refund's credit note as a PDF",
        params: idParams,
        querystring: documentPdfQuery,
        response: {
          200: pdfReply,
          400: problemReplies[400],
          401: problemReplies[401],
          404: noDocument("refund"),
        },
      },
    },
    async (request, reply) =>
      sendPdf(reply, await findCreditNote(ctx.db, request.params.id), request.query.lang),
  );
}
