import { describe, expect, it } from "vitest";
import { ApiProblem, illegalTransition, notFound, validationFailed } from "../../../src/problems/index.js";

describe("problem details", () => {
  it("carries the RFC 9457 members, a stable code, then its extensions", () => {
    const problem = new ApiProblem(409, "refund_exists", "Charge already refunded", "once only", {
      refund_id: "r1",
    });
    expect(problem.toBody()).toEqual({
      type: "urn:billing-engine:problem:refund_exists",
      title: "Charge already refunded",
      status: 409,
      detail: "once only",
      code: "refund_exists",
      refund_id: "r1",
    });
    expect(Object.keys(problem.toBody()).slice(0, 5)).toEqual(["type", "title", "status", "detail", "code"]);
  });

  it("lists each offending field of a validation failure", () => {
    const body = validationFailed([
      { field: "amount", location: "body", message: "amount must be greater than zero" },
      { field: "limit", location: "query", message: "limit must be a whole number from 1 to 100" },
    ]).toBody();
    expect(body).toMatchObject({ status: 400, code: "validation_failed" });
    expect(body.errors).toHaveLength(2);
    expect(body.detail).toBe(
      "amount: amount must be greater than zero; limit: limit must be a whole number from 1 to 100",
    );
  });

  it("names both states of an illegal transition", () => {
    expect(illegalTransition("subscription", "canceled", "paused").toBody()).toMatchObject({
      status: 422,
      code: "illegal_transition",
      subject: "subscription",
      from: "canceled",
      to: "paused",
      detail: "cannot move a subscription from canceled to paused",
    });
  });

  it("says which resource was not found", () => {
    expect(notFound("charge", "c1").toBody()).toMatchObject({ status: 404, detail: "no charge with id c1" });
  });
});
