/**
 * Entitlements: the features plans give (features API, plan features) and what a customer may use
 * now, read through an in-process cache and announced as `entitlements.changed` (docs/entitlements.md).
 */
export { archiveFeature } from "./archive-feature.js";
export { type EntitlementsBody, entitlementsBody } from "./body.js";
export { dropAllEntitlements, dropEntitlements } from "./cache.js";
export { changesEntitlements, entitlementChanges } from "./changed-events.js";
export { createFeature } from "./create-feature.js";
export { type EntitlementSource, entitlementSources } from "./entitlement-sources.js";
export { FeatureError, type FeatureErrorCode } from "./errors.js";
export {
  type CreateFeatureInput,
  createFeatureBody,
  FEATURE_CODE,
  featureCode,
  type PlanFeatureInput,
  planFeatureBody,
} from "./feature-input.js";
export type { StoredFeature, StoredPlanFeature } from "./feature-record.js";
export { getFeature } from "./get-feature.js";
export { listFeatures } from "./list-features.js";
export { listPlanFeatures } from "./list-plan-features.js";
export type { CustomerEntitlements } from "./load-entitlements.js";
export { customerEntitlements } from "./read-entitlements.js";
export { setPlanFeature } from "./set-plan-feature.js";
export { unsetPlanFeature } from "./unset-plan-feature.js";
