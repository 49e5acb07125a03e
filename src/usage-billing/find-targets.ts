import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../db/index.js";
import { meters, plans } from "../db/schema/index.js";
import { UsagePriceError } from "./errors.js";

/**
 * Rule: a usage price is set on a plan named by id and a meter named by code or id. An unknown
 * plan or meter is refused naming it (`plan_not_found`, `meter_not_found`).
 */

export async function findPlan(db: Db | Tx, planId: string) {
  const [plan] = z.uuid().safeParse(planId).success
    ? await db
        .select({ id: plans.id, currency: plans.currency, billingMode: plans.billingMode })
        .from(plans)
        .where(eq(plans.id, planId))
    : [];
  if (!plan) {
    throw new UsagePriceError("plan_not_found", `no plan ${planId}`, { plan_id: planId }, "plan_id");
  }
  return plan;
}

export async function findMeter(db: Db | Tx, idOrCode: string) {
  const match = z.uuid().safeParse(idOrCode).success ? eq(meters.id, idOrCode) : eq(meters.code, idOrCode);
  const [meter] = await db.select().from(meters).where(match);
  if (!meter) {
    throw new UsagePriceError("meter_not_found", `no meter ${idOrCode}`, { meter: idOrCode }, "meter");
  }
  return meter;
}
