import { eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { features } from "../db/schema/index.js";
import { type StoredFeature, toStoredFeature } from "./feature-record.js";

/** Rule: a feature is named by its code, archived or not; null when there is none. */
export async function getFeature(
  ctx: Pick<EngineContext, "db">,
  code: string,
): Promise<StoredFeature | null> {
  const [row] = await ctx.db.select().from(features).where(eq(features.code, code));
  return row ? toStoredFeature(row) : null;
}
