/** Moving subscriptions between plans: now with proration, at the period's end, or without either. */
export { applyScheduledPlanChanges, scheduledChangesDue } from "./apply-scheduled.js";
export { cancelScheduledPlanChange } from "./cancel-scheduled.js";
export { type ChangePlanResult, changePlan } from "./change-plan.js";
export { PlanChangeError, type PlanChangeRefusal } from "./errors.js";
export type { PlanFacts } from "./load.js";
export { type ChangingSubscription, planChangeRefusal } from "./refusals.js";
