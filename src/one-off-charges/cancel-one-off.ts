import type { EngineContext } from "../context/index.js";
import type { OneOffCharge } from "./create-one-off.js";
import { OneOffRefusal } from "./errors.js";
import { type OneOffRow, oneOffOf } from "./waiting-one-offs.js";

/**
 * Cancels a one-off charge still waiting for the next bill, under its subscription's row lock (the
 * scheduler's), so it is either billed or canceled, never both. One billed already (a charge of its
 * own, or a line of a period's charge) is refused: a charge is refunded, not canceled.
 */
export async function cancelOneOffCharge(
  ctx: Pick<EngineContext, "db" | "clock">,
  input: { subscriptionId: string; oneOffId: string },
): Promise<OneOffCharge> {
  const now = ctx.clock.now();
  return ctx.db.$client.begin(async (tx) => {
    await tx`select id from subscriptions where id = ${input.subscriptionId} for update`;
    const [row] = await tx<(OneOffRow & { canceled_at: string | null })[]>`
      select id, subscription_id, description, unit_amount_minor, quantity, currency, collect, charge_id, canceled_at
      from one_off_charges where id = ${input.oneOffId} and subscription_id = ${input.subscriptionId}`;
    if (!row) {
      throw new OneOffRefusal(
        "one_off_not_found",
        `no one-off charge ${input.oneOffId} on subscription ${input.subscriptionId}`,
      );
    }
    if (row.charge_id !== null || row.canceled_at !== null) {
      throw new OneOffRefusal(
        "one_off_not_waiting",
        row.charge_id
          ? `one-off charge ${row.id} is billed by charge ${row.charge_id}; refund that charge instead`
          : `one-off charge ${row.id} is canceled already`,
        { charge_id: row.charge_id },
      );
    }
    await tx`update one_off_charges set canceled_at = ${now.toUTC().toISO()} where id = ${row.id}`;
    return oneOffOf(row);
  });
}

/** The subscription's one-off charges, newest first, with what billed each. */
export async function listOneOffCharges(
  ctx: Pick<EngineContext, "db">,
  subscriptionId: string,
): Promise<(OneOffCharge & { canceled: boolean })[]> {
  const rows = await ctx.db.$client<(OneOffRow & { canceled: boolean })[]>`
    select id, subscription_id, description, unit_amount_minor, quantity, currency, collect, charge_id,
           canceled_at is not null as canceled
    from one_off_charges where subscription_id = ${subscriptionId}
    order by created_at desc, id desc`;
  return rows.map((row) => ({ ...oneOffOf(row), canceled: row.canceled }));
}
