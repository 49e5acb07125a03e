import type { EngineContext } from "../../context/index.js";
import { findRefund, listRefunds } from "../../refunds/index.js";
import type { ApiApp } from "../context.js";
import { idParams, problemReplies } from "../schemas/common.js";
import { presentRefund, refundListQuery, refundPage, refundSchema } from "../schemas/refunds.js";

/** Reads of refunds; a refund is made on its charge (POST /v1/charges/:id/refund). */
export function refundRoutes(app: ApiApp, ctx: EngineContext): void {
  app.get(
    "/refunds",
    {
      schema: {
        tags: ["refunds"],
        summary: "List refunds, oldest first",
        querystring: refundListQuery,
        response: { 200: refundPage, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const page = await listRefunds(ctx.db, request.query);
      return { data: page.data.map(presentRefund), has_more: page.has_more };
    },
  );

  app.get(
    "/refunds/:id",
    {
      schema: {
        tags: ["refunds"],
        summary: "Get a refund",
        params: idParams,
        response: { 200: refundSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => presentRefund(await findRefund(ctx.db, request.params.id)),
  );
}
