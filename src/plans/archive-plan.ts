import { eq } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { plans } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { type StoredPlan, toStoredPlan } from "./plan-record.js";

/**
 * Rule: an archived plan takes no new subscriptions (enrolment, plan changes and the portal refuse
 * it, `plan_archived`), while the subscriptions on it keep billing on it and the changes already
 * scheduled onto it still happen. Unarchiving makes it take new subscriptions again. Asking for
 * the state a plan is in changes nothing and records nothing; otherwise plan.archived or
 * plan.unarchived is recorded in the same transaction. Null for an unknown plan.
 */

type Ctx = Pick<EngineContext, "db" | "clock">;
interface Request {
  id: string;
  actor: string;
}

async function setArchived(ctx: Ctx, { id, actor }: Request, archived: boolean): Promise<StoredPlan | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    // Conflicts with the shared lock an enrolment holds on the plan, so none starts on it after this.
    const [row] = await tx.select().from(plans).where(eq(plans.id, id)).for("no key update");
    if (!row) return null;
    if ((row.archivedAt !== null) === archived) return toStoredPlan(row);
    const [updated] = await tx
      .update(plans)
      .set({ archivedAt: archived ? now.toJSDate() : null })
      .where(eq(plans.id, id))
      .returning();
    if (!updated) throw new Error(`plan ${id} was not ${archived ? "archived" : "unarchived"}`);
    await recordEvent(tx, {
      type: archived ? "plan.archived" : "plan.unarchived",
      actor,
      occurredAt: now,
      data: { plan_id: id, name: row.name },
    });
    return toStoredPlan(updated);
  });
}

export const archivePlan = (ctx: Ctx, request: Request) => setArchived(ctx, request, true);

export const unarchivePlan = (ctx: Ctx, request: Request) => setArchived(ctx, request, false);
