import { CommanderError } from "commander";
import { ZodError } from "zod";
import { ApiProblem } from "../api/problem.js";
import { ApiKeyNameError } from "../apikeys/index.js";
import { ConfigError } from "../config/index.js";
import { CustomerInputError } from "../customers/index.js";
import { DuplicateSubscriptionError, EnrollmentCheckoutError, EnrollmentError } from "../enrollment/index.js";
import { PlanInputError } from "../plans/index.js";
import { RefundError } from "../refunds/index.js";

/**
 * Exit codes: 0 done, 1 the work failed (a refusal, the gateway, the database), 2 the command line
 * or the configuration is wrong, 3 a bulk run finished but rejected some rows.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, partial: 3 } as const;

/** A failure the CLI explains itself: the message is printed as is, after "error: ". */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** A bad option value, named the way the user typed it: `--amount: "10.123" has …`. */
export function optionError(option: string, message: string): CliError {
  return new CliError(`${option}: ${message}`, EXIT.usage);
}

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
  if (error instanceof PlanInputError || error instanceof CustomerInputError) {
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
  if (error instanceof EnrollmentError || error instanceof ApiProblem || error instanceof RefundError) {
    return new CliError(error.message);
  }
  if (error instanceof CommanderError) return new CliError(error.message, EXIT.usage);
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(message);
}
