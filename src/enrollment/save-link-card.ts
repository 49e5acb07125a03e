import { tokenExpiry } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { EVENT_TYPES, type EventInput, recordEvents } from "../events/index.js";
import { collectByCard } from "./collect-by-card.js";
import { ENROLLMENT_EVENTS } from "./events.js";

/**
 * Rule: a payment link's checkout that the customer asked to save the card (v1 save_token) and
 * that the gateway confirmed paid, with the card token CheckStatus reports for it (never the one
 * in the return URL), saves that card and turns the subscription to charge_automatically
 * (collect-by-card.ts), in one transaction with the subscription locked. Whether the card can be
 * charged later is the gateway's word: no token in the record means it was not saved, and the
 * subscription stays on links. The token is stored sealed like an enrolment's (an autosave token:
 * v1 saving is autosave); its fingerprint is unique, so a repeat saves nothing twice. A subscription
 * that has ended keeps paying nothing and saves nothing.
 */
interface SubscriptionRow {
  id: string;
  customer_id: string;
  status: string;
  payment_method_id: string | null;
  collection_method: string;
}

export async function saveLinkCard(
  ctx: Pick<EngineContext, "db" | "clock" | "vault" | "config">,
  input: { chargeId: string; attemptId: string; cardToken: string },
): Promise<boolean> {
  const now = ctx.clock.now();
  const sealed = ctx.vault.encrypt(input.cardToken);
  return ctx.db.$client.begin(async (tx) => {
    const [subscription] = await tx<SubscriptionRow[]>`
      select s.id, s.customer_id, s.status::text as status, s.payment_method_id,
        s.collection_method::text as collection_method
      from subscriptions s where s.id = (select subscription_id from charges where id = ${input.chargeId}::uuid)
      for update`;
    if (!subscription || subscription.status === "canceled") return false;
    const [method] = await tx<{ id: string }[]>`
      insert into payment_methods (customer_id, subscription_id, kind, token_ciphertext, token_nonce,
        token_tag, token_key_id, token_fingerprint, issued_at, expires_at)
      values (${subscription.customer_id}::uuid, ${subscription.id}::uuid, 'autosave', ${sealed.ciphertext},
        ${sealed.nonce}, ${sealed.tag}, ${sealed.keyId}, ${ctx.vault.fingerprint(input.cardToken)},
        ${now.toUTC().toISO()}::timestamptz, ${tokenExpiry(now, null).toUTC().toISO()}::timestamptz)
      on conflict (token_fingerprint) do nothing
      returning id`;
    if (!method) return false;
    const previous = subscription.payment_method_id;
    if (previous !== null) {
      await tx`
        update payment_methods set deactivated_at = ${now.toUTC().toISO()}::timestamptz,
          deactivation_reason = ${`replaced by the card saved paying charge ${input.chargeId}`}
        where id = ${previous}::uuid and deactivated_at is null`;
    }
    await tx`update subscriptions set payment_method_id = ${method.id}::uuid where id = ${subscription.id}::uuid`;
    const moved = await collectByCard(ctx, tx, subscription.id);
    const common = {
      actor: "payment-links",
      occurredAt: now,
      subscriptionId: subscription.id,
      customerId: subscription.customer_id,
    };
    const events: EventInput[] = [
      {
        ...common,
        type: ENROLLMENT_EVENTS.paymentMethodReplaced,
        data: {
          payment_method_id: method.id,
          previous_payment_method_id: previous,
          saved_paying_charge: input.chargeId,
          attempt_id: input.attemptId,
        },
      },
    ];
    if (subscription.collection_method === "send_payment_link") {
      events.push({
        ...common,
        type: EVENT_TYPES.subscriptionCollectionMethodChanged,
        data: { from: "send_payment_link", to: "charge_automatically", charges_to_card: moved },
      });
    }
    await recordEvents(tx, events);
    return true;
  });
}
