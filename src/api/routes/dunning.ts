import type { EngineContext } from "../../context/index.js";
import { runDunning } from "../../dunning/index.js";
import type { ApiApp } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { problemReplies } from "../schemas/common.js";
import { dunningRunBody, dunningSummarySchema, presentDunningSummary } from "../schemas/dunning.js";

export function dunningRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/dunning/run",
    {
      schema: {
        tags: ["dunning"],
        summary: "Collect retrying charges now",
        description:
          "Without options: the retrying charges whose retry is due. `all`: every retrying charge. Narrowed to a subscription or a customer when given. `dry_run` only lists them.",
        headers: idempotencyHeaders,
        body: dunningRunBody,
        response: { 200: dunningSummarySchema, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const { dry_run, all, subscription_id, customer_id } = request.body ?? {};
      const summary = await runDunning(ctx, {
        dryRun: dry_run,
        all,
        subscriptionId: subscription_id,
        customerId: customer_id,
      });
      return presentDunningSummary(summary);
    },
  );
}
