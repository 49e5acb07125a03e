/** Moving subscriptions between plans: now with proration, at the period's end, or without either. */
export { applyScheduledPlanChanges } from "./apply-scheduled.js";
export { cancelScheduledInput, cancelScheduledPlanChange } from "./cancel-scheduled.js";
export { type ChangePlanInput, type ChangePlanResult, changePlan, changePlanInput } from "./change-plan.js";
export { PlanChangeError, type PlanChangeRefusal } from "./errors.js";
export type { PlanFacts } from "./load.js";
export { type ChangingSubscription, type PlanRuleRefusal, planChangeRefusal } from "./refusals.js";
