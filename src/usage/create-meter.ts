import type { EngineContext } from "../context/index.js";
import { SqlState, violates } from "../db/index.js";
import { meters } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { forgetMeters } from "./meter-cache.js";
import { meterInputSchema } from "./meter-input.js";
import { MeterExistsError, type StoredMeter, toStoredMeter } from "./meter-record.js";

/**
 * Rule: a new meter is stored from `{ code, name, aggregation }` (a ZodError names each bad
 * field); a code already taken, even by an archived meter, is refused with MeterExistsError, since
 * events name meters by code and an old code must not start meaning something else.
 */
export async function createMeter(
  ctx: Pick<EngineContext, "db" | "clock">,
  input: unknown,
  { actor = "system" }: { actor?: string } = {},
): Promise<StoredMeter> {
  const meter = meterInputSchema.parse(input);
  try {
    const stored = await ctx.db.transaction(async (tx) => {
      const [row] = await tx.insert(meters).values(meter).returning();
      if (!row) throw new Error("meter was not stored");
      await recordEvent(tx, {
        type: "meter.created",
        actor,
        occurredAt: ctx.clock.now(),
        data: { meter_id: row.id, code: row.code, name: row.name, aggregation: row.aggregation },
      });
      return toStoredMeter(row);
    });
    forgetMeters(ctx.db);
    return stored;
  } catch (error) {
    if (violates(error, SqlState.uniqueViolation, "meters_code_key")) throw new MeterExistsError(meter.code);
    throw error;
  }
}
