import { CommanderError } from "commander";
import { ZodError } from "zod";
import { ApiKeyNameError } from "../apikeys/index.js";
import { ConfigError } from "../config/index.js";
import { CouponError, CouponInputError } from "../coupons/index.js";
import { CustomerInputError } from "../customers/index.js";
import { DuplicateSubscriptionError, EnrollmentCheckoutError, EnrollmentError } from "../enrollment/index.js";
import { PlanInputError } from "../plans/index.js";
import { CreditInputError, CreditRefusal } from "../pricing/index.js";
// The problem itself, not the problems index, which loads every service to map its errors.
import { ApiProblem } from "../problems/problem.js";
import { RefundError } from "../refunds/index.js";
import { CliError, EXIT, optionError } from "./errors.js";

/**
 * What a failed command threw, as the message and exit code the user gets. Kept apart from
 * errors.ts because it knows every service's error class: it is loaded only when a command fails.
 */

/**
 * Field errors of a service, renamed to the options that carry them. The services word their
 * messages after the field ('amount "10.123" has …'); the field is replaced by the option so the
 * user sees what to fix on the command line.
 */
function fieldsAsOptions(
  issues: readonly { field: string; message: string }[],
  options: Readonly<Record<string, string>>,
): CliError {
  const lines = issues.map(({ field, message }) => {
    const option = options[field] ?? `--${field.replaceAll("_", "-")}`;
    const rest = message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
    return `${option}: ${rest}`;
  });
  return new CliError(lines.join("\n"), EXIT.usage);
}

/** Maps what a command threw to the message and exit code the user gets. */
export function toCliError(error: unknown, fieldOptions: Readonly<Record<string, string>> = {}): CliError {
  if (error instanceof CliError) return error;
  if (
    error instanceof PlanInputError ||
    error instanceof CustomerInputError ||
    error instanceof CouponInputError ||
    error instanceof CreditInputError
  ) {
    return fieldsAsOptions(error.issues, fieldOptions);
  }
  if (error instanceof ZodError) {
    return fieldsAsOptions(
      error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })),
      fieldOptions,
    );
  }
  if (error instanceof ConfigError) return new CliError(error.message, EXIT.usage);
  if (error instanceof ApiKeyNameError) return optionError("--name", error.message);
  if (error instanceof EnrollmentError && error.code === "invalid_input") {
    return new CliError(error.message, EXIT.usage);
  }
  if (error instanceof DuplicateSubscriptionError) {
    return new CliError(`${error.message}; pass --allow-duplicate to subscribe again`);
  }
  if (error instanceof EnrollmentCheckoutError) {
    const left = error.subscriptionCanceled
      ? `subscription ${error.subscriptionId} was canceled, nothing is left open`
      : `subscription ${error.subscriptionId} stays pending_enrollment; POST /v1/subscriptions/${error.subscriptionId}/new-card-link gives it a checkout`;
    return new CliError(`${error.message}; ${left}`);
  }
  if (
    error instanceof EnrollmentError ||
    error instanceof ApiProblem ||
    error instanceof RefundError ||
    error instanceof CouponError ||
    error instanceof CreditRefusal
  ) {
    return new CliError(error.message);
  }
  if (error instanceof CommanderError) return new CliError(error.message, EXIT.usage);
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(message);
}
