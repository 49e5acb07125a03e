import { eq } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { customers } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import type { Customer } from "./customer-record.js";
import { parseCustomerUpdate } from "./customer-update-input.js";
import { getCustomer } from "./get-customer.js";

/**
 * Changes what the customer told us (name, phone) and how we write to them (language, time zone,
 * the message kinds they opted out of): only the fields given, with a customer.updated event naming
 * the fields (not their values: the log keeps no contact details) in the same transaction. An opt-out
 * takes effect for the messages of later events: the outbox reads it as each event is recorded.
 * Null for an unknown customer; throws CustomerInputError naming each bad field.
 */
export async function updateCustomer(
  ctx: Pick<EngineContext, "db" | "clock">,
  id: string,
  input: unknown,
  { actor = "system" }: { actor?: string } = {},
): Promise<Customer | null> {
  const update = parseCustomerUpdate(input);
  if (!z.uuid().safeParse(id).success) return null;
  const changes = {
    ...(update.name === undefined ? {} : { name: update.name }),
    ...(update.phone === undefined ? {} : { phone: update.phone }),
    ...(update.language === undefined ? {} : { language: update.language }),
    ...(update.time_zone === undefined ? {} : { timeZone: update.time_zone }),
    ...(update.message_opt_outs === undefined ? {} : { messageOptOuts: update.message_opt_outs }),
  };
  const fields = Object.entries(update)
    .filter(([, value]) => value !== undefined)
    .map(([field]) => field);
  if (fields.length === 0) return getCustomer(ctx, id);
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx.update(customers).set(changes).where(eq(customers.id, id)).returning();
    if (!updated) return null;
    await recordEvent(tx, {
      type: "customer.updated",
      actor,
      occurredAt: ctx.clock.now(),
      customerId: id,
      data: { customer_id: id, fields },
    });
    return updated;
  });
}
