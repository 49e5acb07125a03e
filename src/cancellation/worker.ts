import { UnrecoverableError } from "bullmq";
import type { EngineContext } from "../context/index.js";
import { refreshClock } from "../context/index.js";
import type { BillingWorker, WorkerSettings } from "../queue/index.js";
import {
  deactivateToken,
  PaymentMethodNotFoundError,
  TokenDeactivationRefusedError,
} from "./deactivate-token.js";

/**
 * The token-deactivation queue's worker: one job per card (job id token-deactivation-<id>), each a
 * call to deactivateToken after the shared clock is refreshed. Transport failures throw and BullMQ
 * retries with backoff; a missing card or a refusal cannot be fixed by retrying, so the job fails
 * at once and stays in the failed set for an operator.
 */
export function startTokenDeactivationWorker(
  ctx: EngineContext,
  settings: WorkerSettings = { concurrency: 4 },
): BillingWorker {
  return ctx.queues.worker(
    "token-deactivation",
    async ({ paymentMethodId }) => {
      await refreshClock(ctx.clock);
      try {
        return await deactivateToken(ctx, paymentMethodId);
      } catch (error) {
        if (error instanceof PaymentMethodNotFoundError || error instanceof TokenDeactivationRefusedError) {
          throw new UnrecoverableError(error.message);
        }
        throw error;
      }
    },
    settings,
  );
}
