import { isLinkSignature, paymentLinkUrl } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";

/**
 * A subscription's "what I owe" page (`/pay/subscription/<id>/<signature>`): where a customer who
 * has just chosen to pay by link lands, and a link a merchant may hand out once for good. It sends
 * the customer to the payment link of the oldest charge waiting for one; says when there is
 * nothing to pay yet (a trial, or no charge due); and, when a charge is due but the billing tick
 * has not made or sent it yet, asks the page to look again in a moment.
 */
export type SubscriptionDue =
  | { readonly kind: "not_found" }
  | { readonly kind: "charge"; readonly link: string }
  | { readonly kind: "trialing" | "preparing" | "nothing_due"; readonly language: "en" | "ar" };

type Ctx = Pick<EngineContext, "db" | "clock" | "vault" | "publicUrl">;

interface Row {
  status: string;
  language: "en" | "ar";
  awaiting: string | null;
  waiting: boolean;
}

export async function subscriptionDue(
  ctx: Ctx,
  subscriptionId: string,
  signature: string,
): Promise<SubscriptionDue> {
  if (!isLinkSignature(ctx, "subscription", subscriptionId, signature)) return { kind: "not_found" };
  const now = ctx.clock.now().toUTC().toISO();
  const [row] = await ctx.db.$client<Row[]>`
    select s.status::text as status, cu.language,
      (select c.id from charges c where c.subscription_id = s.id and c.status = 'awaiting_payment'
        order by c.period_start, c.id limit 1) as awaiting,
      (s.collection_method = 'send_payment_link' and (s.next_billing_at <= ${now}::timestamptz
        or exists (select 1 from charges c where c.subscription_id = s.id
          and c.status in ('scheduled', 'retrying')))) as waiting
    from subscriptions s join customers cu on cu.id = s.customer_id
    where s.id = ${subscriptionId}::uuid`;
  if (!row) return { kind: "not_found" };
  if (row.awaiting !== null) return { kind: "charge", link: paymentLinkUrl(ctx, row.awaiting) };
  if (row.waiting) return { kind: "preparing", language: row.language };
  return { kind: row.status === "trialing" ? "trialing" : "nothing_due", language: row.language };
}
