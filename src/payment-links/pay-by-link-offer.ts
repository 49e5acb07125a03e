import { isLinkSignature, signedLinkUrl } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { setCollectionMethod } from "./switch-method.js";

/**
 * Rule: a checkout that was to save a card and failed (a Qatar debit card cannot pay a recurring
 * payment, so the gateway refuses to save it) is not a dead end. While its subscription is still
 * pending, the result page offers to pay each period by payment link instead: a signed POST action
 * (`/pay/enrollment/<enrollment id>/<signature>`) that starts the subscription by link
 * (switch-method.ts) and sends the customer to what it owes now (subscription-due.ts). Clicking
 * twice lands on the same page; a subscription that started meanwhile (another checkout saved a
 * card) is not switched.
 */
type Ctx = Pick<EngineContext, "db" | "clock" | "vault" | "publicUrl" | "dunning" | "config">;

interface Row {
  subscription_id: string;
  status: string;
  collection_method: string;
}

/** The action offering pay-by-link after this enrolment failed, or null when there is none. */
export async function payByLinkOffer(ctx: Ctx, enrollmentId: string): Promise<string | null> {
  const row = await pending(ctx, enrollmentId);
  return row?.status === "pending_enrollment" ? signedLinkUrl(ctx, "enrollment", enrollmentId) : null;
}

/** Takes the offer; the subscription's "what I owe" page, or null when it does not hold. */
export async function acceptPayByLink(
  ctx: Ctx,
  enrollmentId: string,
  signature: string,
): Promise<string | null> {
  if (!isLinkSignature(ctx, "enrollment", enrollmentId, signature)) return null;
  const row = await pending(ctx, enrollmentId);
  if (!row) return null;
  if (row.status === "pending_enrollment") {
    await setCollectionMethod(ctx, {
      subscriptionId: row.subscription_id,
      method: "send_payment_link",
      actor: "customer:checkout",
    });
  } else if (row.collection_method !== "send_payment_link") {
    return null;
  }
  return signedLinkUrl(ctx, "subscription", row.subscription_id);
}

/** The failed enrolment's subscription, as it is now. */
async function pending(ctx: Ctx, enrollmentId: string): Promise<Row | undefined> {
  const [row] = await ctx.db.$client<Row[]>`
    select s.id as subscription_id, s.status::text as status, s.collection_method::text as collection_method
    from enrollments e join subscriptions s on s.id = e.subscription_id
    where e.id = ${enrollmentId}::uuid and e.status = 'failed'`;
  return row;
}
