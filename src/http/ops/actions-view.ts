import { permits } from "../../apikeys/index.js";
import type { OpsSession } from "../../sessions/index.js";
import { html, type Raw } from "../html.js";

/**
 * The dashboard's actions and who may take them. Each is the same operation as an API route, so a
 * key's scope means the same on the dashboard as on the API: a read-only key sees no buttons, a
 * restricted key only those its operations name. Resuming collection has no API route; it needs a
 * full key.
 */
export type OpsAction = "reconcile" | "retry" | "refund" | "resume";

const OPERATIONS: Record<Exclude<OpsAction, "resume">, string> = {
  reconcile: "/v1/charges/:id/reconcile",
  retry: "/v1/charges/:id/retry",
  refund: "/v1/charges/:id/refund",
};

export const ACTION_LABELS: Record<OpsAction, string> = {
  reconcile: "Reconcile",
  retry: "Retry now",
  refund: "Refund",
  resume: "Resume collection",
};

export type Can = (action: OpsAction) => boolean;

export function canFor(session: OpsSession): Can {
  return (action) =>
    action === "resume" ? session.scope === "full" : permits(session, "POST", OPERATIONS[action]);
}

/**
 * A charge's action button. A refund moves money back, so its button only opens the confirmation
 * page (refund-confirm-page.ts), a plain link that works without a script; the others act at once.
 */
export function actionForm(
  can: Can,
  csrf: string,
  chargeId: string,
  action: Exclude<OpsAction, "resume">,
): Raw {
  if (!can(action)) return html`<span class="muted" title="this key may not ${action}">–</span>`;
  if (action === "refund") {
    return html`<a class="act danger" href="/ops/charges/${chargeId}/refund" data-action="refund">${ACTION_LABELS.refund}…</a>`;
  }
  return html`<form method="post" action="/ops/charges/${chargeId}/${action}" class="inline"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="act" data-action="${action}">${ACTION_LABELS[action]}</button></form>`;
}
