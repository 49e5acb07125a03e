import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/index.js";

describe("loadConfig", () => {
  it("applies defaults for an empty environment", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.BILLING_CLOCK).toBe("system");
    expect(config.BILLING_TICK_SECONDS).toBe(60);
    expect(config.GATEWAY_LEGACY_ENCODING).toBe("form");
    expect(config.GATEWAY_AUTHORIZE_PATH).toBe("/v1/Authorization/Authorize");
    expect(config.DUNNING_RETRY_DAYS).toEqual([1, 3, 5, 7]);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("parses and coerces good values", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/billing",
      REDIS_URL: "redis://127.0.0.1:6379",
      GATEWAY_API_KEY: "2b5e3d5c-8f7a-4e61-9d0b-0c1f2a3b4c5d",
      PORT: "8080",
      TOKEN_ENCRYPTION_KEY: "a".repeat(64),
      BILLING_CLOCK: "controllable",
      DUNNING_RETRY_DAYS: "2, 4",
    });
    expect(config.PORT).toBe(8080);
    expect(config.BILLING_CLOCK).toBe("controllable");
    expect(config.DUNNING_RETRY_DAYS).toEqual([2, 4]);
  });

  it("lists every offending variable in one error", () => {
    let error: unknown;
    try {
      loadConfig({
        DATABASE_URL: "not a url",
        PORT: "seventy",
        GATEWAY_API_KEY: "abc",
        BILLING_CLOCK: "sundial",
        TOKEN_ENCRYPTION_KEY: "short",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.variable).sort();
    expect(problems).toEqual([
      "BILLING_CLOCK",
      "DATABASE_URL",
      "GATEWAY_API_KEY",
      "PORT",
      "TOKEN_ENCRYPTION_KEY",
    ]);
    expect((error as ConfigError).message).toMatch(/GATEWAY_API_KEY: expected the merchant API key, a GUID/);
  });
});

describe("WEBHOOK_ALLOWED_HOSTS", () => {
  it("is empty by default, so no internal address receives webhooks", () => {
    expect(loadConfig({}).WEBHOOK_ALLOWED_HOSTS).toEqual([]);
  });

  it("reads host names, addresses and networks, trimmed and lower-cased", () => {
    const config = loadConfig({ WEBHOOK_ALLOWED_HOSTS: " LocalHost, 127.0.0.1,::1 ,10.0.0.0/8,fd00::/8," });
    expect(config.WEBHOOK_ALLOWED_HOSTS).toEqual(["localhost", "127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8"]);
  });

  it.each(["10.0.0.0/33", "::/129", "host/8", "http://localhost", "a b", "10.0.0.0/8/1"])(
    "refuses %j, naming the variable",
    (value) => {
      expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: value })).toThrow(/WEBHOOK_ALLOWED_HOSTS: /);
    },
  );
});

describe("GATEWAY_CURRENCIES", () => {
  it("is QAR by default, the gateway's own default currency", () => {
    expect(loadConfig({}).GATEWAY_CURRENCIES).toEqual(["QAR"]);
  });

  it("reads a comma-separated list in any case, each code once", () => {
    expect(loadConfig({ GATEWAY_CURRENCIES: "qar, USD,QAR" }).GATEWAY_CURRENCIES).toEqual(["QAR", "USD"]);
  });

  it("refuses a code that is not ISO 4217, naming it", () => {
    expect(() => loadConfig({ GATEWAY_CURRENCIES: "QAR,QQQ" })).toThrow(
      /GATEWAY_CURRENCIES: "QQQ" is not an ISO 4217 currency code/,
    );
    expect(() => loadConfig({ GATEWAY_CURRENCIES: " , " })).toThrow(
      /GATEWAY_CURRENCIES: expected at least one code/,
    );
  });
});
