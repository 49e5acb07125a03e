import { firstLateCheckSeconds } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";

/**
 * Rule: an open checkout that is replaced (a newer one is handed out, the charge goes back to the
 * card, or collection ends) is closed as failed_permanently, "no money moved so far", and WATCHED
 * like an attempt CheckStatus did not know (late-payments/): its page may still be open in a tab
 * and paid later, and that payment must then be found, applied or refunded as a duplicate.
 */
export async function supersedeCheckouts(
  ctx: Pick<EngineContext, "clock" | "config">,
  sql: SqlRunner,
  where: { readonly attemptId: string } | { readonly chargeIds: readonly string[] },
  why: string,
): Promise<number> {
  const watchIn = firstLateCheckSeconds(ctx.config);
  const at = ctx.clock.now().toUTC().toISO();
  const attemptId = "attemptId" in where ? where.attemptId : null;
  const chargeIds = "chargeIds" in where ? [...where.chargeIds] : [];
  const closed = await sql`
    update charge_attempts set status = 'failed_permanently', decline_description = ${why},
      settled_at = ${at}::timestamptz,
      late_check_at = case when ${watchIn}::double precision is null then null
        else now() + make_interval(secs => ${watchIn}::double precision) end
    where channel = 'checkout' and status = 'in_flight'
      and (id = ${attemptId}::uuid or charge_id = any(${chargeIds}::uuid[]))`;
  return closed.count;
}
