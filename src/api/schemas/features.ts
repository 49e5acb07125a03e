import { z } from "zod";
import { FEATURE_KINDS } from "../../billing/index.js";
import type { CustomerEntitlements, StoredFeature, StoredPlanFeature } from "../../entitlements/index.js";
import { entitlementsBody } from "../../entitlements/index.js";
import { iso, pageOf, pageQuery, timestamp } from "./common.js";

/** Features, the features plans include, and what a customer may use now. */

export const featureSchema = z
  .object({
    id: z.uuid(),
    code: z.string().describe("What your application asks about"),
    name: z.string(),
    kind: z.enum(FEATURE_KINDS).describe("boolean: a switch; limit: a number, or unlimited"),
    created_at: timestamp,
    archived_at: timestamp.nullable().describe("Set once archived: no plan grants it from then on"),
  })
  .meta({ id: "Feature" });

export function presentFeature(feature: StoredFeature): z.infer<typeof featureSchema> {
  return {
    id: feature.id,
    code: feature.code,
    name: feature.name,
    kind: feature.kind,
    created_at: iso(feature.createdAt),
    archived_at: iso(feature.archivedAt),
  };
}

export const featureListQuery = pageQuery.extend({
  include_archived: z.stringbool().default(false).describe("Also list archived features"),
});

export const featurePage = pageOf(featureSchema);

const code = z.string().min(1).max(64).describe("The feature's code");

export const featureParams = z.object({ code });
export const planFeatureParams = z.object({ id: z.uuid(), code });

export const planFeatureSchema = z
  .object({
    plan_id: z.uuid(),
    feature: z.string().describe("The feature's code"),
    name: z.string(),
    kind: z.enum(FEATURE_KINDS),
    limit: z
      .number()
      .int()
      .nullable()
      .describe("The plan's limit; null: unlimited (a limit feature) or none (a switch)"),
    feature_archived: z.boolean().describe("An archived feature stays attached but grants nothing"),
    created_at: timestamp,
  })
  .meta({ id: "PlanFeature" });

export function presentPlanFeature(row: StoredPlanFeature): z.infer<typeof planFeatureSchema> {
  return {
    plan_id: row.planId,
    feature: row.feature.code,
    name: row.feature.name,
    kind: row.feature.kind,
    limit: row.limit,
    feature_archived: row.feature.archivedAt !== null,
    created_at: iso(row.createdAt),
  };
}

export const planFeatureList = z.object({ data: z.array(planFeatureSchema) });

export const removedPlanFeatureSchema = z.object({
  plan_id: z.uuid(),
  feature: z.string(),
  removed: z.literal(true),
});

export const entitlementsSchema = z
  .object({
    customer_id: z.uuid(),
    entitlements: z.array(
      z.object({
        feature: z.string(),
        kind: z.enum(FEATURE_KINDS),
        enabled: z.literal(true),
        limit: z
          .number()
          .int()
          .nullable()
          .describe("The largest limit granted; null: unlimited, or a switch"),
      }),
    ),
    subscriptions: z
      .array(z.uuid())
      .describe("The subscriptions whose standing grants their plan's features"),
    as_of: timestamp.describe("Billing clock: when this answer was computed (it may come from the cache)"),
    grace_ends_at: timestamp
      .nullable()
      .describe("When a past_due subscription's grace ends and, unless paid, its features go"),
  })
  .meta({ id: "Entitlements" });

export function presentEntitlements(value: CustomerEntitlements): z.infer<typeof entitlementsSchema> {
  return entitlementsBody(value);
}
