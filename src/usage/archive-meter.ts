import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { meters } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { forgetMeters } from "./meter-cache.js";
import { type StoredMeter, toStoredMeter } from "./meter-record.js";

/**
 * Rule: an archived meter takes no new events (they are refused naming it); what it already
 * recorded still counts when periods are added up. Archiving twice changes nothing. The meter is
 * named by id or code; null when there is none.
 */
export async function archiveMeter(
  ctx: Pick<EngineContext, "db" | "clock">,
  idOrCode: string,
  { actor = "system" }: { actor?: string } = {},
): Promise<StoredMeter | null> {
  const match = z.uuid().safeParse(idOrCode).success ? eq(meters.id, idOrCode) : eq(meters.code, idOrCode);
  const archived = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(meters)
      .set({ archivedAt: sql`now()` })
      .where(and(match, isNull(meters.archivedAt)))
      .returning();
    if (!row) return null;
    await recordEvent(tx, {
      type: "meter.archived",
      actor,
      occurredAt: ctx.clock.now(),
      data: { meter_id: row.id, code: row.code },
    });
    return toStoredMeter(row);
  });
  if (archived) {
    forgetMeters(ctx.db);
    return archived;
  }
  const [existing] = await ctx.db.select().from(meters).where(match);
  return existing ? toStoredMeter(existing) : null;
}
