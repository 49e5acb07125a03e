import { eq, or } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import type { Db, Tx } from "../db/index.js";
import { addons } from "../db/schema/index.js";
import { type AddonRow, type StoredAddon, toStoredAddon } from "./addon-record.js";

/**
 * Rule: an add-on is named by its code, or else by its id, archived or not. A code may itself look
 * like a uuid (codes are lower-case), so the code wins when both match.
 */
export async function getAddon(
  ctx: Pick<EngineContext, "db">,
  idOrCode: string,
): Promise<StoredAddon | null> {
  const row = await findAddonRow(ctx.db, idOrCode);
  return row ? toStoredAddon(row) : null;
}

/**
 * The row `idOrCode` names. `lock`: `update` while it is archived, `share` while it is attached, so
 * an add-on archived at the same moment is either attached first or seen archived.
 */
export async function findAddonRow(
  db: Db | Tx,
  idOrCode: string,
  lock?: "update" | "share",
): Promise<AddonRow | null> {
  const byId = z.uuid().safeParse(idOrCode).success ? eq(addons.id, idOrCode) : undefined;
  const query = db
    .select()
    .from(addons)
    .where(or(eq(addons.code, idOrCode), byId));
  const rows = lock ? await query.for(lock) : await query;
  return rows.find((row) => row.code === idOrCode) ?? rows[0] ?? null;
}
