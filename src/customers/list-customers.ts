import { asc } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { afterCursor } from "../db/keyset.js";
import { customers } from "../db/schema/index.js";
import type { Customer } from "./customer-record.js";

export const listCustomersOptions = z.strictObject({
  limit: z.number().int().min(1).max(500).default(100),
  /** The id of the last customer of the previous page. */
  after: z.uuid().optional(),
});

export type ListCustomersOptions = z.input<typeof listCustomersOptions>;

export interface CustomerPage {
  customers: Customer[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * Customers oldest first, a page at a time (keyset on created_at, id, so rows added while paging
 * neither shift nor repeat). Bad options throw a ZodError naming the field.
 */
export async function listCustomers(
  ctx: Pick<EngineContext, "db">,
  options: ListCustomersOptions = {},
): Promise<CustomerPage> {
  const { limit, after } = listCustomersOptions.parse(options);
  const rows = await ctx.db
    .select()
    .from(customers)
    .where(afterCursor(customers, after))
    .orderBy(asc(customers.createdAt), asc(customers.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { customers: page, nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}
