import type { FastifyRequest } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toProblem } from "../../../src/api/errors.js";
import { IllegalTransitionError, PlanInputError } from "../../../src/billing/index.js";
import { SubscriptionNotFoundError } from "../../../src/cancellation/index.js";
import {
  DuplicateSubscriptionError,
  EnrollmentCheckoutError,
  EnrollmentError,
} from "../../../src/enrollment/index.js";
import { GatewayRejectedError, GatewayUnavailableError } from "../../../src/gateway/index.js";
import { ApiProblem } from "../../../src/problems/index.js";

const request = { url: "/v1/things/abc", method: "GET" } as FastifyRequest;

/** The error Fastify raises when the zod validator refuses `data` in `context`. */
function validationError(schema: z.ZodType, data: unknown, context: string): Error {
  const result = validatorCompiler({ schema, method: "POST", url: "/", httpPart: context })(data);
  if (typeof result !== "object" || !("error" in result) || !result.error) {
    throw new Error("expected the data to be refused");
  }
  return Object.assign(new Error("validation"), {
    statusCode: 400,
    code: "FST_ERR_VALIDATION",
    validation: result.error,
    validationContext: context,
  });
}

describe("toProblem", () => {
  it("passes an ApiProblem through", () => {
    const problem = new ApiProblem(418, "teapot", "Teapot", "short and stout");
    expect(toProblem(problem, request)).toBe(problem);
  });

  it("names each field of a validation failure, with nested paths and unknown keys", () => {
    const schema = z.strictObject({ name: z.string(), items: z.array(z.object({ qty: z.number() })) });
    const problem = toProblem(validationError(schema, { items: [{ qty: "2" }], extra: 1 }, "body"), request);
    expect(problem?.status).toBe(400);
    expect(problem?.toBody().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "name", location: "body" }),
        expect.objectContaining({ field: "items.0.qty", location: "body" }),
        { field: "extra", location: "body", message: "unknown field" },
      ]),
    );
  });

  it("says a required body is missing when none came, rather than what zod expected of it", () => {
    const schema = z.strictObject({ name: z.string() });
    const missing = toProblem(validationError(schema, null, "body"), {
      ...request,
      body: null,
    } as FastifyRequest);
    expect(missing?.toBody()).toMatchObject({
      status: 400,
      code: "validation_failed",
      detail: "body: a JSON body is required",
      errors: [{ field: "body", location: "body", message: "a JSON body is required" }],
    });
    // A body that came but is not an object is named as zod names it.
    const array = toProblem(validationError(schema, [], "body"), { ...request, body: [] } as FastifyRequest);
    expect(array?.toBody().errors).toEqual([
      { field: "body", location: "body", message: "Invalid input: expected object, received array" },
    ]);
  });

  it("locates query and header failures, and makes a malformed path id a 404", () => {
    const query = toProblem(validationError(z.object({ limit: z.number() }), {}, "querystring"), request);
    expect(query?.toBody().errors).toEqual([expect.objectContaining({ field: "limit", location: "query" })]);
    const path = toProblem(validationError(z.object({ id: z.uuid() }), { id: "abc" }, "params"), request);
    expect(path?.toBody()).toMatchObject({
      status: 404,
      code: "not_found",
      detail: "nothing at /v1/things/abc",
    });
  });

  it("maps the services' errors", () => {
    const cases: [unknown, number, string][] = [
      [new IllegalTransitionError("subscription", "paused", "past_due"), 422, "illegal_transition"],
      [new PlanInputError([{ field: "amount", message: "too many decimals" }]), 400, "validation_failed"],
      [new SubscriptionNotFoundError("s1"), 404, "not_found"],
      [new EnrollmentError("plan_archived", "plan p is archived"), 422, "plan_archived"],
      [new EnrollmentError("customer_not_found", "no customer c"), 422, "unknown_reference"],
      [new EnrollmentError("subscription_not_found", "no subscription s"), 404, "not_found"],
      [
        new EnrollmentError("subscription_canceled", "subscription s is canceled"),
        422,
        "subscription_canceled",
      ],
    ];
    for (const [error, status, code] of cases) {
      expect(toProblem(error, request)?.toBody(), String(error)).toMatchObject({ status, code });
    }
  });

  it("tells a gateway that was unavailable from one that refused", () => {
    const init = { operation: "v1.checkout" as const, code: 503, description: "down" };
    const unavailable = toProblem(new GatewayUnavailableError({ ...init, outcomeUnknown: false }), request);
    expect(unavailable?.toBody()).toMatchObject({
      status: 503,
      code: "gateway_error",
      outcome_unknown: false,
    });
    expect(toProblem(new GatewayRejectedError(init), request)?.status).toBe(502);
  });

  it("points a failed checkout at the subscription it left behind", () => {
    const gatewayError = new GatewayUnavailableError({
      operation: "legacy.addTransaction",
      code: "timeout",
      description: "no reply",
      outcomeUnknown: false,
    });
    const problem = toProblem(new EnrollmentCheckoutError("sub-1", "enr-1", gatewayError, false), request);
    expect(problem?.toBody()).toMatchObject({
      status: 502,
      code: "checkout_failed",
      subscription_id: "sub-1",
      enrollment_id: "enr-1",
      retryable: true,
      subscription_canceled: false,
    });
    expect(problem?.detail).toContain("ask for a new card link for subscription sub-1");
  });

  it("says a refused checkout left no subscription open", () => {
    const refused = new GatewayRejectedError({
      operation: "legacy.addTransaction",
      code: -20,
      description: "Not Found: no application data for the currency",
    });
    const problem = toProblem(new EnrollmentCheckoutError("sub-1", "enr-1", refused, true), request);
    expect(problem?.toBody()).toMatchObject({
      status: 502,
      code: "checkout_failed",
      subscription_id: "sub-1",
      subscription_canceled: true,
      retryable: false,
      outcome_unknown: false,
    });
    expect(problem?.detail).toContain("the subscription was not started (sub-1 is canceled)");
  });

  it("names the subscription a customer already has to the plan", () => {
    const problem = toProblem(new DuplicateSubscriptionError("sub-1", "active", "cus-1", "plan-1"), request);
    expect(problem?.toBody()).toMatchObject({
      status: 409,
      code: "already_subscribed",
      subscription_id: "sub-1",
      subscription_status: "active",
      detail:
        'customer cus-1 already has subscription sub-1 (active) to plan plan-1; send "allow_duplicate": true to subscribe again',
    });
  });

  it("keeps the status of Fastify's own refusals and leaves anything else to a 500", () => {
    const media = Object.assign(new Error("Unsupported Media Type: text/csv"), {
      statusCode: 415,
      code: "FST_ERR_CTP_INVALID_MEDIA_TYPE",
    });
    expect(toProblem(media, request)?.toBody()).toMatchObject({
      status: 415,
      code: "unsupported_media_type",
    });
    expect(toProblem(new Error("boom"), request)).toBeUndefined();
  });
});
