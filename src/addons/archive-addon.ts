import { eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { addons } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { type StoredAddon, toStoredAddon } from "./addon-record.js";
import { findAddonRow } from "./get-addon.js";

/**
 * Rule: an archived add-on is attached to nothing new, while the subscriptions that carry it keep
 * it (their quantity may still change, and it may be removed); it is archived, never deleted, since
 * charge lines and events name it. Archiving an archived add-on changes nothing. Recorded as
 * `addon.archived`; null when there is no such add-on.
 */
export async function archiveAddon(
  ctx: Pick<EngineContext, "db" | "clock">,
  { idOrCode, actor }: { idOrCode: string; actor: string },
): Promise<StoredAddon | null> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const row = await findAddonRow(tx, idOrCode, "update");
    if (!row) return null;
    if (row.archivedAt) return toStoredAddon(row);
    const [archived] = await tx
      .update(addons)
      .set({ archivedAt: now.toJSDate() })
      .where(eq(addons.id, row.id))
      .returning();
    if (!archived) throw new Error(`add-on ${row.code} was not archived`);
    await recordEvent(tx, {
      type: "addon.archived",
      actor,
      occurredAt: now,
      data: { addon_id: row.id, code: row.code },
    });
    return toStoredAddon(archived);
  });
}
