import type { FastifyInstance, FastifyReply } from "fastify";
import type { DocumentSeries } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { openSignedDocument } from "../customer-documents/index.js";
import { DOCUMENT_PATH_KIND, DOCUMENTS_PATH } from "../messages/index.js";

/**
 * The customer's receipts and credit notes, opened with no login from the signed links their
 * messages and the portal carry (messages/document-links.ts):
 * - GET /documents/<kind>/<id>/<signature>: the printable page; `<signature>.pdf`: the PDF, shown
 *   inline and saved under the document's number;
 * - ?lang=en|ar prints it in that language (else RECEIPT_BILINGUAL, else the customer's);
 * - a wrong signature, an unknown kind or id: the same 404, so a link tells nothing about others.
 * The answer is the customer's alone (cache-control: private) and sends no referrer: the address
 * is the key to the document, and the page may fetch the merchant's logo from another host.
 */

const KIND_OF_SEGMENT = new Map(
  Object.entries(DOCUMENT_PATH_KIND).map(([kind, segment]) => [segment, kind as DocumentSeries]),
);

/** The page has its own inline style and may show the merchant's logo; nothing else runs or loads. */
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

const HEADERS = {
  "cache-control": "private",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-robots-tag": "noindex",
};

type Params = { kind: string; id: string; signature: string };

/** After the signature, the PDF rather than the page (signatures are base64url: no dot). */
const PDF = ".pdf";

const asked = (lang: unknown) => (lang === "en" || lang === "ar" ? lang : undefined);

export function registerDocumentRoutes(app: FastifyInstance, ctx: EngineContext): void {
  app.get<{ Params: Params; Querystring: { lang?: string } }>(
    `${DOCUMENTS_PATH}/:kind/:id/:signature`,
    async (request, reply) => {
      const { kind: segment, id, signature: last } = request.params;
      const kind = KIND_OF_SEGMENT.get(segment);
      if (kind === undefined) return notFound(reply);
      const pdf = last.endsWith(PDF);
      const signature = pdf ? last.slice(0, -PDF.length) : last;
      const printed = await openSignedDocument(
        ctx,
        { kind, id, signature },
        pdf ? "pdf" : "html",
        asked(request.query.lang),
      );
      if (!printed) return notFound(reply);
      reply.headers(HEADERS).type(printed.contentType);
      if (pdf)
        return reply
          .header("content-disposition", `inline; filename="${printed.number}.pdf"`)
          .send(printed.body);
      return reply.header("content-security-policy", CSP).send(printed.body);
    },
  );
}

function notFound(reply: FastifyReply) {
  return reply
    .code(404)
    .headers({ ...HEADERS, "cache-control": "no-store" })
    .type("text/plain; charset=utf-8")
    .send("This document link is not valid. / رابط المستند هذا غير صالح.");
}
