import type { DateTime } from "luxon";
import { z } from "zod";
import {
  amountFixedByToken,
  type BillingMode,
  type CollectionMethod,
  decimalAmountText,
  MAX_QUANTITY,
  oneOffLine,
  positiveMinorUnits,
  storableText,
} from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInstant, type SqlTx } from "../db/index.js";
import { EVENT_TYPES, recordEvents } from "../events/index.js";
import { createdChargeEvents, insertChargeLines } from "../pricing/index.js";
import { enqueueChargeBatches } from "../queue/index.js";
import { OneOffInputError, OneOffRefusal } from "./errors.js";

/**
 * createOneOffCharge: a merchant charges a subscription's customer once (a set-up fee, an
 * overage, a service), unit amount × quantity in the subscription's currency. Rules:
 * - `now`: its own charge (kind one_off) is written with it, due at once and collected like any
 *   charge (card or payment link, dunning, reconciliation); handed to the charge queue after commit
 *   (if that fails, the next tick hands it out). Only a trialing or active subscription: a
 *   past_due one has an open debt to collect first;
 * - `next_bill`: it waits for the scheduler, which bills it as a line of the subscription's next
 *   period charge (scheduler/bill-due-subscriptions.ts) and can be canceled until then; a past_due
 *   subscription may take it (it is billed when renewals resume);
 * - a subscription charged through a recurring card token is refused: the gateway charges the
 *   token only the amount it was enrolled for. Payment links or an autosave card take any amount;
 * - written under the subscription's row lock, which the scheduler holds while billing, so a
 *   waiting one-off is billed by exactly one period charge.
 */
export const oneOffBody = z.strictObject(
  {
    description: z
      .string({ error: "description must be a string" })
      .trim()
      .min(1, { error: "description must not be empty" })
      .max(200, { error: "description must be at most 200 characters" })
      .check(storableText("description")),
    amount: decimalAmountText().describe('Price of one unit in the subscription\'s currency, e.g. "150.00"'),
    quantity: z
      .number({ error: "quantity must be a number" })
      .int({ error: "quantity must be a whole number" })
      .min(1, { error: "quantity must be at least 1" })
      .max(MAX_QUANTITY, { error: `quantity must be at most ${MAX_QUANTITY}` })
      .default(1),
    collect: z
      .enum(["now", "next_bill"], { error: "collect must be now or next_bill" })
      .describe("now: a charge of its own, collected at once; next_bill: a line of the next period's charge"),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
  },
);
export type OneOffBody = z.input<typeof oneOffBody>;

export interface OneOffCharge {
  readonly id: string;
  readonly subscriptionId: string;
  readonly description: string;
  readonly unitAmountMinor: number;
  readonly quantity: number;
  readonly currency: string;
  readonly collect: "now" | "next_bill";
  /** The charge that bills it; null while it waits for the next bill. */
  readonly chargeId: string | null;
}

interface Locked {
  id: string;
  customer_id: string;
  plan_id: string;
  status: string;
  currency: string;
  collection_method: CollectionMethod;
  card_kind: "recurring" | "autosave" | null;
  billing_mode: BillingMode;
  current_period_start: string | null;
  current_period_end: string | null;
}

export async function createOneOffCharge(
  ctx: Pick<EngineContext, "db" | "clock" | "queues" | "logger">,
  input: { subscriptionId: string; body: OneOffBody; actor: string },
): Promise<OneOffCharge> {
  const parsed = oneOffBody.safeParse(input.body);
  if (!parsed.success) {
    throw new OneOffInputError(
      parsed.error.issues.map((issue) => ({ field: issue.path.join(".") || "body", message: issue.message })),
    );
  }
  const body = parsed.data;
  const now = ctx.clock.now();
  const created = await ctx.db.$client.begin(async (tx) => {
    const subscription = await lockSubscription(tx, input.subscriptionId);
    refuse(subscription, body.collect);
    const unitAmountMinor = positiveMinorUnits(body.amount, subscription.currency);
    if (typeof unitAmountMinor === "string") {
      throw new OneOffInputError([{ field: "amount", message: unitAmountMinor }]);
    }
    const [row] = await tx<{ id: string }[]>`
      insert into one_off_charges (subscription_id, description, unit_amount_minor, quantity, currency, collect, actor)
      values (${subscription.id}, ${body.description}, ${unitAmountMinor}, ${body.quantity}, ${subscription.currency},
              ${body.collect}, ${input.actor})
      returning id`;
    const item = {
      id: row!.id,
      subscriptionId: subscription.id,
      description: body.description,
      unitAmountMinor,
      quantity: body.quantity,
      currency: subscription.currency,
      collect: body.collect,
    };
    const chargeId =
      body.collect === "now" ? await chargeNow(tx, subscription, item, input.actor, now) : null;
    if (chargeId === null) {
      await recordEvents(tx, [
        {
          type: EVENT_TYPES.subscriptionOneOffChargeAdded,
          actor: input.actor,
          occurredAt: now,
          subscriptionId: subscription.id,
          customerId: subscription.customer_id,
          data: oneOffData(item, null),
        },
      ]);
    }
    return { ...item, chargeId };
  });
  if (created.chargeId) {
    await enqueueChargeBatches(ctx.queues, [[created.chargeId]]).catch((err: unknown) =>
      ctx.logger.warn(
        { err, chargeId: created.chargeId },
        "could not enqueue the one-off charge; the next tick hands it out",
      ),
    );
  }
  return created;
}

async function lockSubscription(tx: SqlTx, subscriptionId: string): Promise<Locked> {
  const [row] = await tx<Locked[]>`
    select s.id, s.customer_id, s.plan_id, s.status, p.currency, s.current_period_start, s.current_period_end,
           s.collection_method, pm.kind as card_kind, p.billing_mode
    from subscriptions s
    join plans p on p.id = s.plan_id
    left join payment_methods pm on pm.id = s.payment_method_id
    where s.id = ${subscriptionId}
    for update of s`;
  if (!row) throw new OneOffRefusal("subscription_not_chargeable", `no subscription ${subscriptionId}`);
  return row;
}

function refuse(subscription: Locked, collect: "now" | "next_bill"): void {
  const allowed = collect === "now" ? ["trialing", "active"] : ["trialing", "active", "past_due"];
  if (!allowed.includes(subscription.status)) {
    throw new OneOffRefusal(
      "subscription_not_chargeable",
      collect === "now" && subscription.status === "past_due"
        ? `subscription ${subscription.id} is past_due: its unpaid charge is collected first; add it to the next bill instead`
        : `subscription ${subscription.id} is ${subscription.status}: it takes no one-off charge`,
      { status: subscription.status },
    );
  }
  if (
    amountFixedByToken({
      collectionMethod: subscription.collection_method,
      cardKind: subscription.card_kind,
      planBillingMode: subscription.billing_mode,
    })
  ) {
    throw new OneOffRefusal(
      "card_amount_fixed",
      `subscription ${subscription.id} is charged through a recurring card token, which the gateway charges only the amount ` +
        "it was enrolled for; a one-off charge needs an autosave card or payment links (collection-method send_payment_link)",
      { card_kind: "recurring" },
    );
  }
}

/** The one-off's own charge: due now, recorded as handed out (the caller enqueues it), with its line. */
async function chargeNow(
  tx: SqlTx,
  subscription: Locked,
  item: Omit<OneOffCharge, "chargeId">,
  actor: string,
  now: DateTime,
): Promise<string> {
  const line = oneOffLine(item);
  // Shown over the current period; a trial with none yet, over the day it was charged.
  const start = subscription.current_period_start ? pgInstant(subscription.current_period_start) : now;
  const end =
    subscription.current_period_end && pgInstant(subscription.current_period_end) > start
      ? pgInstant(subscription.current_period_end)
      : start.plus({ days: 1 });
  const nowIso = now.toUTC().toISO();
  const [charge] = await tx<{ id: string }[]>`
    insert into charges (subscription_id, plan_id, quantity, kind, period_start, period_end, amount_minor, currency,
                         status, next_attempt_at, dispatched_at)
    values (${subscription.id}, ${subscription.plan_id}, ${item.quantity}, 'one_off', ${start.toUTC().toISO()},
            ${end.toUTC().toISO()}, ${line.amountMinor}, ${item.currency}, 'scheduled', ${nowIso}, now())
    returning id`;
  const chargeId = charge!.id;
  await tx`update one_off_charges set charge_id = ${chargeId} where id = ${item.id}`;
  await insertChargeLines(tx, [{ chargeId, lines: [line] }]);
  const subjects = {
    actor,
    occurredAt: now,
    subscriptionId: subscription.id,
    customerId: subscription.customer_id,
  };
  await recordEvents(tx, [
    ...createdChargeEvents(
      { ...subjects, chargeId },
      {
        kind: "one_off",
        period_start: start.toISO(),
        period_end: end.toISO(),
        amount_minor: line.amountMinor,
        currency: item.currency,
        quantity: item.quantity,
        one_off_charge_id: item.id,
        description: item.description,
      },
    ),
    { ...subjects, type: EVENT_TYPES.subscriptionOneOffChargeAdded, data: oneOffData(item, chargeId) },
  ]);
  return chargeId;
}

function oneOffData(item: Omit<OneOffCharge, "chargeId">, chargeId: string | null) {
  return {
    one_off_charge_id: item.id,
    description: item.description,
    unit_amount_minor: item.unitAmountMinor,
    quantity: item.quantity,
    amount_minor: oneOffLine(item).amountMinor,
    currency: item.currency,
    collect: item.collect,
    charge_id: chargeId,
  };
}
