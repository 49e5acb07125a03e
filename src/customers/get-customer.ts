import { eq } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { customers } from "../db/schema/index.js";
import type { Customer } from "./customer-record.js";

/** The customer with this id; null when there is none (or the id is not a uuid). */
export async function getCustomer(ctx: Pick<EngineContext, "db">, id: string): Promise<Customer | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] = await ctx.db.select().from(customers).where(eq(customers.id, id));
  return row ?? null;
}
