import type { DateTime } from "luxon";
import { type CollectionMethod, Refusal, tokenStatus } from "../billing/index.js";
import { sendPaymentLinksIn } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInstant, pgInstantOrNull, pgInteger, type SqlTx, sqlOf } from "../db/index.js";
import { collectByCard, startByLink } from "../enrollment/index.js";
import { EVENT_TYPES, recordEvents } from "../events/index.js";
import { upcomingCharge } from "../upcoming/index.js";

/**
 * Switching how a subscription pays, under its row lock, all or nothing:
 * - to send_payment_link: each charge waiting for the card (scheduled or retrying) gets its link
 *   at once (charging/send-payment-links.ts); a card attempt in flight finishes first, and its
 *   retry then goes out as a link. The card stays on file: nothing we still need is stopped.
 * - to charge_automatically: only with a card the gateway lets us charge (an active token, and a
 *   recurring one only for charges of the amount it was saved for: what waits, and the next period
 *   charge as the tick will price it, seats, add-ons, one-offs, coupon and credit included; never
 *   a plan that prices usage, which varies); else refused with
 *   `no_usable_card` (the customer adds one through a new-card link or the portal, which switches
 *   by itself). What waits for a link goes back to the card (enrollment/collect-by-card.ts).
 * - a subscription still pending its enrolment (the checkout that saves the card failed, as a Qatar
 *   debit card's does, or was not paid) may start paying by link (enrollment/start-by-link.ts)
 *   instead of being a dead end; to the card it is refused: its enrolment is how the card comes.
 * The same method again changes nothing. Refused for a subscription that has ended.
 */
export type SwitchRefusalCode = "subscription_not_found" | "subscription_ended" | "no_usable_card";
export class CollectionMethodRefusal extends Refusal<SwitchRefusalCode> {}

export interface SwitchResult {
  readonly subscriptionId: string;
  readonly collectionMethod: CollectionMethod;
  readonly changed: boolean;
  /** Charges whose link went out (to links) or that went back to the card (to card). */
  readonly chargeIds: readonly string[];
}

type Ctx = Pick<EngineContext, "db" | "clock" | "vault" | "publicUrl" | "dunning" | "config">;

interface Row {
  id: string;
  customer_id: string;
  status: string;
  collection_method: CollectionMethod;
  pm_id: string | null;
  pm_kind: string | null;
  pm_amount_minor: string | null;
  issued_at: string | null;
  expires_at: string | null;
  deactivated_at: string | null;
  unusable_at: string | null;
}

export async function setCollectionMethod(
  ctx: Ctx,
  input: { subscriptionId: string; method: CollectionMethod; actor: string },
): Promise<SwitchResult> {
  const { subscriptionId, method, actor } = input;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (drizzleTx) => {
    const tx = sqlOf(drizzleTx);
    const [row] = await tx<Row[]>`
      select s.id, s.customer_id, s.status::text as status, s.collection_method,
        pm.id as pm_id, pm.kind::text as pm_kind, pm.amount_minor::text as pm_amount_minor,
        pm.issued_at, pm.expires_at, pm.deactivated_at, pm.unusable_at
      from subscriptions s left join payment_methods pm on pm.id = s.payment_method_id
      where s.id = ${subscriptionId}::uuid
      for update of s`;
    if (!row)
      throw new CollectionMethodRefusal("subscription_not_found", `no subscription ${subscriptionId}`);
    if (row.status === "pending_enrollment" && method === "send_payment_link") {
      await startByLink(drizzleTx, subscriptionId, { actor, occurredAt: now });
      return { subscriptionId, collectionMethod: method, changed: true, chargeIds: [] };
    }
    if (row.status === "canceled" || row.status === "pending_enrollment") {
      throw new CollectionMethodRefusal(
        "subscription_ended",
        `subscription ${subscriptionId} is ${row.status}; its collection method cannot change`,
        { status: row.status },
      );
    }
    if (row.collection_method === method)
      return { subscriptionId, collectionMethod: method, changed: false, chargeIds: [] };

    let chargeIds: string[];
    if (method === "send_payment_link") {
      await tx`update subscriptions set collection_method = 'send_payment_link' where id = ${subscriptionId}::uuid`;
      const waiting = await tx<{ id: string }[]>`
        select id from charges where subscription_id = ${subscriptionId}::uuid and status in ('scheduled', 'retrying')`;
      chargeIds = await sendPaymentLinksIn(
        ctx,
        tx,
        waiting.map((c) => c.id),
        actor,
      );
    } else {
      await assertUsableCard(ctx, tx, row, now);
      chargeIds = await collectByCard(ctx, tx, subscriptionId);
    }
    await recordEvents(tx, [
      {
        type: EVENT_TYPES.subscriptionCollectionMethodChanged,
        actor,
        occurredAt: now,
        subscriptionId,
        customerId: row.customer_id,
        data: { from: row.collection_method, to: method, charge_ids: chargeIds },
      },
    ]);
    return { subscriptionId, collectionMethod: method, changed: true, chargeIds };
  });
}

async function assertUsableCard(ctx: Ctx, tx: SqlTx, row: Row, now: DateTime): Promise<void> {
  const refuse = (why: string) => {
    throw new CollectionMethodRefusal(
      "no_usable_card",
      `subscription ${row.id} cannot be charged automatically: ${why}; send the customer a new-card link (or the portal) to save one`,
      { payment_method_id: row.pm_id },
    );
  };
  if (row.pm_id === null) return refuse("it has no card on file");
  const status = tokenStatus(
    {
      issuedAt: pgInstant(row.issued_at!),
      expiresAt: pgInstant(row.expires_at!),
      deactivatedAt: pgInstantOrNull(row.deactivated_at),
      unusableAt: pgInstantOrNull(row.unusable_at),
    },
    now,
  );
  if (status !== "active") return refuse(`its card token is ${status}`);
  if (row.pm_kind !== "recurring" || row.pm_amount_minor === null) return;
  const fixed = pgInteger(row.pm_amount_minor);
  const [other] = await tx<{ id: string }[]>`
    select id from charges where subscription_id = ${row.id}::uuid and status = 'awaiting_payment'
      and amount_minor <> ${fixed} limit 1`;
  if (other) refuse(`its recurring card pays only ${fixed} minor units and charge ${other.id} differs`);
  const next = await upcomingCharge(tx, row.id, {
    taxRateBp: ctx.config.TAX_RATE_PERCENT,
    usageGraceHours: ctx.config.USAGE_GRACE_HOURS,
  });
  if ("reason" in next) return;
  if (next.usage !== null) refuse("its plan prices usage, which varies, and its card is a recurring one");
  if (next.charge.amountMinor !== fixed) {
    refuse(
      `its recurring card pays only ${fixed} minor units and its next charge is ${next.charge.amountMinor}`,
    );
  }
}
