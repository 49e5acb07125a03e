import { and, asc, eq, inArray } from "drizzle-orm";
import type { EngineContext } from "../../context/index.js";
import { charges, events } from "../../db/schema/index.js";
import { EVENT_TYPES } from "../../events/index.js";
import type { RunningSimulator } from "../../simulator/index.js";

/**
 * What the demo's customers do at the gateway's hosted checkout, as a browser would: submit the
 * page (the simulator's /_sim/pay) and follow the redirect back into our server. Nothing here
 * settles anything itself: our server's return page asks CheckStatus, as for any customer.
 */

/** Submits the hosted checkout with the card and follows the redirect back, as the browser does. */
export async function payCheckout(
  simulator: RunningSimulator,
  checkoutUrl: string,
  card: string,
  name: string,
) {
  const reply = await fetch(`${simulator.url}/_sim/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ checkout_url: checkoutUrl, card_number: card, expiry: "12/30", cvv: "123", name }),
  });
  const paid = (await reply.json()) as { status?: string; redirect_url?: string | null };
  if (paid.status !== "SUCCESS" || !paid.redirect_url) {
    throw new Error(`the checkout of ${name} was not paid: ${JSON.stringify(paid)}`);
  }
  const back = await fetch(paid.redirect_url);
  await back.text();
  if (!back.ok) throw new Error(`our server answered ${back.status} to ${name}'s return from the checkout`);
}

/** Whoever pays by link: a name for messages, the card the checkout is paid with, the subscription. */
export interface LinkPayer {
  name: string;
  card: string;
  subscriptionId: string;
}

/**
 * Pays every charge of the payer's subscription that waits for its payment link: the link the
 * merchant received (charge.payment_link_created) is opened on our server, which answers 303 to a
 * hosted checkout for the charge's amount; the checkout is paid with the payer's card and the
 * browser follows it back to the link's return page. Throws unless each charge is then paid.
 * Answers how many were paid.
 */
export async function payLinksOf(
  ctx: EngineContext,
  simulator: RunningSimulator,
  payer: LinkPayer,
): Promise<number> {
  const waiting = await ctx.db
    .select({ id: charges.id })
    .from(charges)
    .where(and(eq(charges.subscriptionId, payer.subscriptionId), eq(charges.status, "awaiting_payment")))
    .orderBy(asc(charges.periodStart));
  if (waiting.length === 0) return 0;
  const sent = await ctx.db
    .select({ chargeId: events.chargeId, data: events.data })
    .from(events)
    .where(
      and(
        eq(events.subscriptionId, payer.subscriptionId),
        eq(events.type, EVENT_TYPES.chargePaymentLinkCreated),
        inArray(
          events.chargeId,
          waiting.map((charge) => charge.id),
        ),
      ),
    );
  for (const charge of waiting) {
    const link = (sent.find((event) => event.chargeId === charge.id)?.data as { payment_link?: string })
      ?.payment_link;
    if (!link)
      throw new Error(`no charge.payment_link_created event for ${payer.name}'s charge ${charge.id}`);
    const opened = await fetch(link, { redirect: "manual" });
    await opened.text();
    const checkoutUrl = opened.headers.get("location");
    if (opened.status !== 303 || !checkoutUrl) {
      throw new Error(`${payer.name}'s payment link answered ${opened.status}, not a checkout to go to`);
    }
    await payCheckout(simulator, checkoutUrl, payer.card, payer.name);
    const [after] = await ctx.db
      .select({ status: charges.status })
      .from(charges)
      .where(eq(charges.id, charge.id));
    if (after?.status !== "paid") {
      throw new Error(
        `${payer.name}'s charge ${charge.id} is ${after?.status ?? "missing"} after the checkout`,
      );
    }
  }
  return waiting.length;
}
