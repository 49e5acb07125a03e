import { z } from "zod";

/**
 * Refusals as RFC 9457 problem details: the merchant API answers with them (src/api sends them as
 * `application/problem+json`), the ops dashboard names their codes and the CLI prints their detail,
 * so they live below all three. Every problem also carries `code`, a stable snake_case name a
 * client can switch on without parsing the `type` URI; `type` is a URN rather than a URL because
 * nothing is served at such an address. This module imports nothing of the engine, so a service
 * may throw a problem (import this file, not the index, which maps every service's errors).
 */

export interface FieldError {
  /** Dotted path of the offending field inside its location ("amount", "items.0.name"). */
  field: string;
  location: "body" | "query" | "path" | "header";
  message: string;
}

const fieldErrorSchema = z.object({
  field: z.string(),
  location: z.enum(["body", "query", "path", "header"]),
  message: z.string(),
});

export const problemSchema = z
  .looseObject({
    type: z.string().describe("URN naming the kind of problem"),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().describe("Stable machine-readable name of the problem"),
    errors: z.array(fieldErrorSchema).optional().describe("Each offending field of a validation failure"),
  })
  .meta({ id: "Problem" });

type Problem = z.infer<typeof problemSchema>;

/** A refusal meant for the caller; the API's error handler sends it as problem+json. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    /** Extension members (RFC 9457 §3.2), e.g. the two states of an illegal transition. */
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = "ApiProblem";
  }

  toBody(): Problem {
    return {
      type: `urn:billing-engine:problem:${this.code}`,
      title: this.title,
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...this.extensions,
    };
  }
}

export const notFound = (resource: string, id: string): ApiProblem =>
  new ApiProblem(404, "not_found", "Resource not found", `no ${resource} with id ${id}`, { resource });

export const validationFailed = (errors: FieldError[]): ApiProblem =>
  new ApiProblem(
    400,
    "validation_failed",
    "Request is invalid",
    errors.map((error) => `${error.field}: ${error.message}`).join("; "),
    { errors },
  );

/** The subject cannot go from its current state to the one asked for; both are named. */
export const illegalTransition = (subject: string, from: string, to: string, detail?: string): ApiProblem =>
  new ApiProblem(
    422,
    "illegal_transition",
    "State transition not allowed",
    detail ?? `cannot move a ${subject} from ${from} to ${to}`,
    { subject, from, to },
  );
