import { Refusal } from "../billing/index.js";

export type FeatureErrorCode =
  | "feature_exists"
  | "feature_not_found"
  | "plan_not_found"
  | "feature_archived"
  | "limit_not_allowed"
  | "limit_required"
  | "plan_feature_not_found";

/**
 * Rule: a refusal of the features services names what was refused (`feature`, `plan_id`) in its
 * details and, when a body field is to blame, that field (`field`), so the API and the CLI can say
 * what to fix.
 */
export class FeatureError extends Refusal<FeatureErrorCode> {
  override name = "FeatureError";

  constructor(
    code: FeatureErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    readonly field?: string,
  ) {
    super(code, message, details);
  }
}
