import { eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { customers } from "../db/schema/index.js";
import { normaliseEmail } from "./customer-input.js";
import type { Customer } from "./customer-record.js";

/** The customer with this e-mail, matched as stored (trimmed, any case); null when none. */
export async function findCustomerByEmail(
  ctx: Pick<EngineContext, "db">,
  email: string,
): Promise<Customer | null> {
  const normalised = normaliseEmail(email);
  if (normalised === null) return null;
  const [row] = await ctx.db.select().from(customers).where(eq(customers.email, normalised));
  return row ?? null;
}
