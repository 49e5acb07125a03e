import { describe, expect, it } from "vitest";
import { requestFingerprint } from "../../../src/api/idempotency.js";

describe("requestFingerprint", () => {
  const base = requestFingerprint("POST", "/v1/plans", { name: "Gold", amount: "10.00", tags: ["a", "b"] });

  it("is a SHA-256 in hex", () => {
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it("ignores the order of object keys, at every depth, and members that are undefined", () => {
    expect(requestFingerprint("POST", "/v1/plans", { tags: ["a", "b"], amount: "10.00", name: "Gold" })).toBe(
      base,
    );
    expect(
      requestFingerprint("POST", "/v1/plans", {
        name: "Gold",
        amount: "10.00",
        tags: ["a", "b"],
        note: undefined,
      }),
    ).toBe(base);
    const nested = (inner: object) => requestFingerprint("POST", "/x", { outer: inner });
    expect(nested({ a: 1, b: 2 })).toBe(nested({ b: 2, a: 1 }));
  });

  it("tells apart another method, path, value or array order", () => {
    const differing = [
      requestFingerprint("PUT", "/v1/plans", { name: "Gold", amount: "10.00", tags: ["a", "b"] }),
      requestFingerprint("POST", "/v1/customers", { name: "Gold", amount: "10.00", tags: ["a", "b"] }),
      requestFingerprint("POST", "/v1/plans", { name: "Gold", amount: "10.0", tags: ["a", "b"] }),
      requestFingerprint("POST", "/v1/plans", { name: "Gold", amount: "10.00", tags: ["b", "a"] }),
      requestFingerprint("POST", "/v1/plans", { name: "Gold", amount: 10, tags: ["a", "b"] }),
    ];
    expect(new Set([base, ...differing]).size).toBe(differing.length + 1);
  });

  it("treats no body and a null body alike", () => {
    expect(requestFingerprint("POST", "/v1/x", undefined)).toBe(requestFingerprint("POST", "/v1/x", null));
  });
});
