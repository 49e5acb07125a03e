import type { EngineContext } from "../context/index.js";
import { SqlState, violates } from "../db/index.js";
import { addons } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { parseAddonInput } from "./addon-input.js";
import { priceColumns, type StoredAddon, toStoredAddon } from "./addon-record.js";
import { AddonError } from "./errors.js";

/**
 * Rule: an add-on is created once per code, archived ones included, so a code always means one
 * add-on; a taken code is refused (`addon_exists`, naming `code`). A bad body throws
 * AddonInputError naming every field, and nothing is written. Recorded as `addon.created`.
 */
export async function createAddon(
  ctx: Pick<EngineContext, "db" | "clock" | "config">,
  input: unknown,
  { actor = "system" }: { actor?: string } = {},
): Promise<StoredAddon> {
  const addon = parseAddonInput(input, { currencies: ctx.config.GATEWAY_CURRENCIES });
  const now = ctx.clock.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(addons)
        .values({
          code: addon.code,
          name: addon.name,
          amountMinor: addon.amount.minor,
          currency: addon.amount.currency,
          ...priceColumns(addon.price),
        })
        .returning();
      if (!row) throw new Error("add-on was not stored");
      await recordEvent(tx, {
        type: "addon.created",
        actor,
        occurredAt: now,
        data: {
          addon_id: row.id,
          code: row.code,
          amount_minor: row.amountMinor,
          currency: row.currency,
          price_model: row.priceModel,
          tiers: row.tiers,
          package_size: row.packageSize,
        },
      });
      return toStoredAddon(row);
    });
  } catch (error) {
    if (violates(error, SqlState.uniqueViolation, "addons_code_key")) {
      throw new AddonError(
        "addon_exists",
        `an add-on with code ${addon.code} already exists`,
        { addon: addon.code },
        "code",
      );
    }
    throw error;
  }
}
