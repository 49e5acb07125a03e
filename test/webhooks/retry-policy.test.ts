import { describe, expect, it } from "vitest";
import {
  DEFAULT_WEBHOOK_RETRY_POLICY,
  webhookRetryDelay,
  webhookRetryPolicy,
} from "../../src/webhooks/index.js";

const policy = DEFAULT_WEBHOOK_RETRY_POLICY;
const noJitter = () => 0;
const fullJitter = () => 0.999_999;

describe("webhook retry delays", () => {
  it("start at 30 s and double", () => {
    const delays = [1, 2, 3, 4, 9].map((attempt) => webhookRetryDelay(attempt, policy, noJitter));

    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 7_680_000]);
  });

  it("never exceed the cap of six hours, however many attempts", () => {
    const sixHours = 6 * 60 * 60 * 1000;

    expect(webhookRetryDelay(11, policy, noJitter)).toBe(sixHours);
    expect(webhookRetryDelay(5_000, policy, noJitter)).toBe(sixHours);
  });

  it("take off at most the jitter fraction", () => {
    expect(webhookRetryDelay(1, policy, fullJitter)).toBe(24_001);
    for (let i = 0; i < 200; i += 1) {
      const delay = webhookRetryDelay(3, policy);
      expect(delay).toBeGreaterThanOrEqual(96_000);
      expect(delay).toBeLessThanOrEqual(120_000);
    }
  });

  it("refuse nonsense", () => {
    expect(() => webhookRetryDelay(0, policy)).toThrow(RangeError);
    expect(() => webhookRetryPolicy({ maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => webhookRetryPolicy({ jitter: 2 })).toThrow(/jitter/);
  });
});
