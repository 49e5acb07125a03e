import type { EngineContext } from "../../context/index.js";
import { findInvoice, listInvoices } from "../../invoicing/index.js";
import type { ApiApp } from "../context.js";
import { invoiceListQuery, invoicePage, invoiceSchema, presentInvoice } from "../schemas/charges.js";
import { idParams, problemReplies } from "../schemas/common.js";

export function invoiceRoutes(app: ApiApp, ctx: EngineContext): void {
  app.get(
    "/invoices",
    {
      schema: {
        tags: ["invoices"],
        summary: "List invoices, oldest first",
        querystring: invoiceListQuery,
        response: { 200: invoicePage, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const page = await listInvoices(ctx.db, request.query);
      return { data: page.data.map(presentInvoice), has_more: page.has_more };
    },
  );

  app.get(
    "/invoices/:id",
    {
      schema: {
        tags: ["invoices"],
        summary: "Get an invoice",
        params: idParams,
        response: { 200: invoiceSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => presentInvoice(await findInvoice(ctx.db, request.params.id)),
  );
}
