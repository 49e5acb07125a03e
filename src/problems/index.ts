/**
 * The engine's refusals as problem details, for every edge that reports them: the merchant API, the
 * ops dashboard, the CLI. A service that throws a problem imports problem.ts itself, not this index.
 */
export { domainProblem } from "./domain-problems.js";
export {
  ApiProblem,
  type FieldError,
  illegalTransition,
  notFound,
  problemSchema,
  validationFailed,
} from "./problem.js";
