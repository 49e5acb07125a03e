import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { type ApiHarness, createApiHarness } from "./support.js";

/**
 * Each API key may make API_RATE_LIMIT requests per API_RATE_WINDOW_SECONDS to /v1 (5 per hour
 * here): the next is a 429 `rate_limited` problem with Retry-After, and another key is not held back.
 * Only counting: nothing waits for a window to pass.
 */

const LIMIT = 5;
let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({ env: { API_RATE_LIMIT: String(LIMIT), API_RATE_WINDOW_SECONDS: "3600" } });
});
afterAll(() => api?.close());

describe("the API's rate limit per key", () => {
  it("answers 429 with Retry-After past API_RATE_LIMIT requests of one key, and not to another key", async () => {
    const remaining: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const response = await api.call("GET", "/v1/plans");
      expect(response.statusCode).toBe(200);
      remaining.push(String(response.headers["x-ratelimit-remaining"]));
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);

    const refused = await api.call("GET", "/v1/plans");
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(3600);
    expect(refused.json()).toMatchObject({ status: 429, code: "rate_limited" });

    const other = await createApiKey(api.h.ctx.db, { name: "another client" });
    expect((await api.call("GET", "/v1/plans", { key: other.key })).statusCode).toBe(200);
  });

  it("does not count requests without a valid key against any key", async () => {
    const fresh = await createApiKey(api.h.ctx.db, { name: "fresh" });
    for (let i = 0; i < LIMIT + 1; i++) {
      expect((await api.call("GET", "/v1/plans", { key: `bk_${"A".repeat(40)}` })).statusCode).toBe(401);
    }
    expect((await api.call("GET", "/v1/plans", { key: fresh.key })).headers["x-ratelimit-remaining"]).toBe(
      String(LIMIT - 1),
    );
  });
});
