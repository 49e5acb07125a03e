import type { EngineContext } from "../context/index.js";
import { SqlState, violates } from "../db/index.js";
import { features } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { FeatureError } from "./errors.js";
import { createFeatureBody } from "./feature-input.js";
import { type StoredFeature, toStoredFeature } from "./feature-record.js";

/**
 * Rule: a feature is created once per code, archived ones included, so a code always means one
 * feature; a taken code is refused (`feature_exists`, naming `code`). A bad body throws the
 * ZodError of feature-input.ts, naming each field. Recorded as `feature.created`.
 */
export async function createFeature(
  ctx: Pick<EngineContext, "db" | "clock">,
  input: unknown,
  { actor = "system" }: { actor?: string } = {},
): Promise<StoredFeature> {
  const feature = createFeatureBody.parse(input);
  const now = ctx.clock.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx.insert(features).values(feature).returning();
      if (!row) throw new Error("feature was not stored");
      await recordEvent(tx, {
        type: "feature.created",
        actor,
        occurredAt: now,
        data: { feature_id: row.id, code: row.code, kind: row.kind },
      });
      return toStoredFeature(row);
    });
  } catch (error) {
    if (violates(error, SqlState.uniqueViolation, "features_code_key")) {
      throw new FeatureError(
        "feature_exists",
        `a feature with code ${feature.code} already exists`,
        { feature: feature.code },
        "code",
      );
    }
    throw error;
  }
}
