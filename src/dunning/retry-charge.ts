import type { EngineContext } from "../context/index.js";
// The problem itself, not the problems index: that one maps every service's errors.
import { ApiProblem } from "../problems/problem.js";
import { type ChargeRow, findCharge, paymentLinkOf } from "../resources/index.js";
import { type RetryNowResult, retryChargeNow } from "./retry-now.js";

/**
 * "Retry now" for one charge, as the API offers it: the dunning service collects it (forced, after
 * reconciling any open attempt), and a charge it would not touch is a refusal rather than a
 * result: a settled or reviewed one is a 422 naming its state, one that another worker holds is
 * a 409, and so is a charge collected by payment link (its link went out, now or before): the
 * customer pays it through the link the problem names. Answers the result with the charge as it is
 * afterwards.
 */

export type Collected = Exclude<RetryNowResult, { kind: "skipped" }>;

export async function retryCharge(
  ctx: EngineContext,
  chargeId: string,
): Promise<{ result: Collected; charge: ChargeRow }> {
  const result = await retryChargeNow(ctx, chargeId);
  const charge = await findCharge(ctx.db, chargeId);
  if (result.kind !== "skipped") return { result, charge };
  switch (result.reason) {
    case "claimed_elsewhere":
    case "already_recorded":
      throw new ApiProblem(
        409,
        "charge_in_progress",
        "Charge is being collected",
        `charge ${chargeId} is being collected by another worker; look at it again shortly`,
        { charge_status: charge.status },
      );
    case "link_sent":
    case "awaiting_customer":
      throw new ApiProblem(
        409,
        "charge_pays_by_link",
        "Charge is collected by payment link",
        `charge ${chargeId} is collected by payment link; the customer pays it there (or switch the subscription to charge_automatically)`,
        { charge_status: charge.status, payment_link: paymentLinkOf(charge, ctx) },
      );
    default:
      throw new ApiProblem(
        422,
        "charge_not_retryable",
        "Charge cannot be retried",
        `charge ${chargeId} is ${charge.status} (${result.reason}); it cannot be collected now`,
        { charge_status: charge.status, reason: result.reason },
      );
  }
}
