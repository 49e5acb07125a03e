import { eq } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { plans } from "../db/schema/index.js";
import { type StoredPlan, toStoredPlan } from "./plan-record.js";

/** The plan with this id, archived or not; null when there is none (or the id is not a uuid). */
export async function getPlan(ctx: Pick<EngineContext, "db">, id: string): Promise<StoredPlan | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] = await ctx.db.select().from(plans).where(eq(plans.id, id));
  return row ? toStoredPlan(row) : null;
}
