import { FeatureError, type FeatureErrorCode } from "../entitlements/index.js";
import { ApiProblem } from "../problems/index.js";

/**
 * The features services' refusals as problems: unknown plans and features are 404s, a code taken
 * is a 409, the rest are the domain's 422s; a refusal about a body field names it in `errors`.
 */
const PROBLEMS: Record<FeatureErrorCode, { status: number; title: string; code?: string }> = {
  feature_exists: { status: 409, title: "Feature code already exists" },
  feature_not_found: { status: 404, code: "not_found", title: "Resource not found" },
  plan_not_found: { status: 404, code: "not_found", title: "Resource not found" },
  plan_feature_not_found: { status: 404, code: "not_found", title: "Plan does not include this feature" },
  feature_archived: { status: 422, title: "Feature is archived" },
  limit_not_allowed: { status: 422, title: "A switch takes no limit" },
  limit_required: { status: 422, title: "A limit feature needs a limit" },
};

export function featureProblem(error: FeatureError): ApiProblem {
  const { status, title, code = error.code } = PROBLEMS[error.code];
  const field = error.field
    ? { errors: [{ field: error.field, location: "body", message: error.message }] }
    : {};
  return new ApiProblem(status, code, title, error.message, { ...error.details, ...field });
}

/** Runs a features service, its refusals thrown as problems. */
export async function refusingAsProblems<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FeatureError) throw featureProblem(error);
    throw error;
  }
}
