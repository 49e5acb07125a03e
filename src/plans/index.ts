/** The plan catalogue: what is sold, at what price and interval. */
export { PlanInputError } from "../billing/index.js";
export { archivePlan, unarchivePlan } from "./archive-plan.js";
export { type CreatePlanOptions, createPlan } from "./create-plan.js";
export { getPlan } from "./get-plan.js";
export { type ListPlansOptions, listPlans, listPlansOptions, type PlanPage } from "./list-plans.js";
export { type StoredPlan, toStoredPlan } from "./plan-record.js";
export { updatePlan } from "./update-plan.js";
