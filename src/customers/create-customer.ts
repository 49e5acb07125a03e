import { eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { customers } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { parseCustomerInput } from "./customer-input.js";
import type { Customer } from "./customer-record.js";

export interface CreateCustomerOptions {
  /** Who asks, as in events ("api:<key id>", "cli", …); default "system". */
  actor?: string;
}

export interface CreateCustomerResult {
  customer: Customer;
  /** False when a customer with this e-mail already existed; it is returned unchanged. */
  created: boolean;
}

/**
 * Creates a customer, idempotent on the e-mail: asking twice (a retried request, two requests at
 * once) gives the same customer, and the second answer says `created: false`. The existing
 * customer's name, phone and language are not overwritten by the repeat. Throws
 * CustomerInputError naming every bad field.
 */
export async function createCustomer(
  ctx: Pick<EngineContext, "db" | "clock">,
  input: unknown,
  { actor = "system" }: CreateCustomerOptions = {},
): Promise<CreateCustomerResult> {
  const customer = parseCustomerInput(input);
  return ctx.db.transaction(async (tx) => {
    // on conflict do nothing waits for a concurrent insert of the same e-mail to commit, so the
    // select below then sees that row.
    const [inserted] = await tx
      .insert(customers)
      .values({
        email: customer.email,
        name: customer.name ?? null,
        phone: customer.phone ?? null,
        language: customer.language,
      })
      .onConflictDoNothing({ target: customers.email })
      .returning();
    if (!inserted) {
      const [existing] = await tx.select().from(customers).where(eq(customers.email, customer.email));
      if (!existing) throw new Error("customer e-mail conflicted but no customer has it");
      return { customer: existing, created: false };
    }
    await recordEvent(tx, {
      type: "customer.created",
      actor,
      occurredAt: ctx.clock.now(),
      customerId: inserted.id,
      data: { customer_id: inserted.id, language: inserted.language },
    });
    return { customer: inserted, created: true };
  });
}
