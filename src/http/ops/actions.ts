import { resumeCollection } from "../../breaker/index.js";
import { reconcileHeldCharge } from "../../charging/index.js";
import type { EngineContext } from "../../context/index.js";
import { retryChargeNow } from "../../dunning/index.js";
import { ApiProblem, domainProblem } from "../../problems/index.js";
import { refundCharge } from "../../refunds/index.js";
import type { OpsSession } from "../../sessions/index.js";
import type { OpsAction } from "./actions-view.js";

/**
 * What a dashboard button does: the same service as the CLI and the API, with the session's key as
 * the actor ("ops:<key id>", so the event log tells dashboard actions apart). The answer is a
 * notice code, never free text: the page it redirects to maps the code to a sentence, so nothing
 * from a request or an error is reflected into a page.
 */

export async function runChargeAction(
  ctx: EngineContext,
  session: OpsSession,
  action: Exclude<OpsAction, "resume">,
  chargeId: string,
): Promise<string> {
  const actor = `ops:${session.apiKeyId}`;
  try {
    switch (action) {
      case "reconcile":
        return `reconcile-${(await reconcileHeldCharge(ctx, chargeId, { actor })).outcome}`;
      case "retry": {
        const result = await retryChargeNow(ctx, chargeId);
        return result.kind === "skipped" ? `retry-skipped-${result.reason}` : `retry-${result.kind}`;
      }
      case "refund":
        return `refund-${(await refundCharge(ctx, { chargeId, actor })).status}`;
    }
  } catch (error) {
    const problem = error instanceof ApiProblem ? error : domainProblem(error);
    if (!problem) throw error;
    return `refused-${problem.code}`;
  }
}

export async function runResume(ctx: EngineContext, session: OpsSession): Promise<string> {
  const { resumed } = await resumeCollection(ctx, {
    actor: `ops:${session.apiKeyId}`,
    note: "from the ops dashboard",
  });
  return resumed ? "resume-resumed" : "resume-already-closed";
}

const NOTICES: Record<string, string> = {
  "reconcile-paid": "Reconciled: the gateway had taken the payment; the charge is paid.",
  "reconcile-declined": "Reconciled: the gateway declined the attempt; dunning continues.",
  "reconcile-released": "Reconciled: the attempt never reached the gateway; the charge is due again.",
  "reconcile-still_unknown": "The gateway still cannot say what happened; the charge stays held.",
  "retry-paid": "Collected: the charge is paid.",
  "retry-declined": "The card was declined again; dunning continues.",
  "retry-token_unusable": "The saved card can no longer be charged; the customer needs to add a new card.",
  "retry-needs_review": "The gateway's answer was unclear; the charge is held for review.",
  "retry-pending":
    "The gateway's answer is not known yet; the engine keeps reconciling and never charges twice.",
  "refund-completed": "Refunded.",
  "refund-under_processing": "Refund accepted; the gateway is processing it.",
  "refund-unknown": "The refund's answer was lost; the engine reconciles it.",
  "refund-failed": "The gateway refused the refund.",
  "resume-resumed": "Collection resumed: held charges go at the next tick.",
  "resume-already-closed": "Collection was not paused.",
};

/** The sentence for a notice code; unknown codes say what they are without echoing them. */
export function noticeText(code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  if (NOTICES[code]) return NOTICES[code];
  const refused = /^refused-([a-z_]{1,40})$/.exec(code);
  if (refused) return `Refused: ${refused[1]?.replaceAll("_", " ")}.`;
  const skipped = /^retry-skipped-([a-z_]{1,40})$/.exec(code);
  if (skipped) return `Not collected: ${skipped[1]?.replaceAll("_", " ")}.`;
  return undefined;
}
