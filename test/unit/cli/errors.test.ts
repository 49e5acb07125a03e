import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { parsePlanInput } from "../../../src/billing/index.js";
import { CliError, EXIT } from "../../../src/cli/errors.js";
import { toCliError } from "../../../src/cli/failures.js";
import { ConfigError } from "../../../src/config/index.js";
import { parseCustomerInput } from "../../../src/customers/index.js";
import { DuplicateSubscriptionError, EnrollmentCheckoutError } from "../../../src/enrollment/index.js";
import { GatewayRejectedError } from "../../../src/gateway/index.js";
import { ApiProblem } from "../../../src/problems/index.js";

function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("toCliError", () => {
  it("names the option that carries a bad plan field", () => {
    const plan = { name: "Pro", amount: "10.00", currency: "QAR", interval: "month" };
    const amount = toCliError(thrown(() => parsePlanInput({ ...plan, amount: "10.123" })));
    expect(amount).toMatchObject({
      exitCode: EXIT.usage,
      message: '--amount: "10.123" has more than 2 decimal place(s) allowed for QAR',
    });
    const trial = toCliError(thrown(() => parsePlanInput({ ...plan, trial_days: -1 })));
    expect(trial.message).toBe("--trial-days: must be at least 0");
  });

  it("names the option of a bad customer field", () => {
    const failure = toCliError(thrown(() => parseCustomerInput({ email: "nope" })));
    expect(failure).toMatchObject({
      exitCode: EXIT.usage,
      message: "--email: must be a valid e-mail address",
    });
  });

  it("keeps the message of a refusal and exits 1", () => {
    const failure = toCliError(new ApiProblem(404, "not_found", "Resource not found", "no charge with id x"));
    expect(failure).toMatchObject({ exitCode: EXIT.failed, message: "no charge with id x" });
    expect(toCliError(new Error("boom"))).toMatchObject({ exitCode: EXIT.failed, message: "boom" });
  });

  it("says what a failed enrolment left: a duplicate names the flag, a failed checkout the subscription", () => {
    const duplicate = toCliError(new DuplicateSubscriptionError("sub-1", "active", "cus-1", "plan-1"));
    expect(duplicate).toMatchObject({
      exitCode: EXIT.failed,
      message:
        "customer cus-1 already has subscription sub-1 (active) to plan plan-1; pass --allow-duplicate to subscribe again",
    });
    const refusal = new GatewayRejectedError({
      operation: "legacy.addTransaction",
      code: -20,
      description: "no application data for the currency",
    });
    expect(toCliError(new EnrollmentCheckoutError("sub-1", "enr-1", refusal, true)).message).toBe(
      "could not open the card checkout: no application data for the currency; subscription sub-1 was canceled, nothing is left open",
    );
  });

  it("treats configuration and command-line problems as usage errors", () => {
    const config = new ConfigError([{ variable: "PORT", message: "expected a number" }]);
    expect(toCliError(config).exitCode).toBe(EXIT.usage);
    expect(toCliError(config).message).toContain("PORT: expected a number");
    expect(toCliError(new CommanderError(1, "commander.missingArgument", "missing")).exitCode).toBe(
      EXIT.usage,
    );
    const own = new CliError("as is", EXIT.partial);
    expect(toCliError(own)).toBe(own);
  });
});
