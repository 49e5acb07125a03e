import type { FeatureKind } from "../billing/index.js";
import type { features } from "../db/schema/index.js";

/** A feature as the services hand it out. */
export interface StoredFeature {
  readonly id: string;
  readonly code: string;
  readonly name: string;
  readonly kind: FeatureKind;
  readonly createdAt: Date;
  readonly archivedAt: Date | null;
}

export function toStoredFeature(row: typeof features.$inferSelect): StoredFeature {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    kind: row.kind,
    createdAt: row.createdAt,
    archivedAt: row.archivedAt,
  };
}

/** A feature a plan includes, with the plan's limit (null: unlimited, and always for a switch). */
export interface StoredPlanFeature {
  readonly planId: string;
  readonly feature: StoredFeature;
  readonly limit: number | null;
  readonly createdAt: Date;
}
