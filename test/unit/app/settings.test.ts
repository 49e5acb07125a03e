import { describe, expect, it } from "vitest";
import { engineNeeds, loadEngineConfig } from "../../../src/app/index.js";
import { ConfigError } from "../../../src/config/index.js";

function problemsOf(run: () => unknown): { variable: string; message: string }[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const BEYOND_VISA = Array.from({ length: 30 }, (_, i) => i + 1).join(",");

describe("loadEngineConfig", () => {
  it("reports bad values, the card networks' limits on dunning and missing settings in one error", () => {
    const problems = problemsOf(() =>
      loadEngineConfig(
        { LOG_LEVEL: "loud", PORT: "seventy", DUNNING_RETRY_DAYS: BEYOND_VISA, NODE_ENV: "production" },
        engineNeeds({ NODE_ENV: "production" }, { database: true }),
      ),
    );
    expect(problems.map((p) => p.variable)).toEqual([
      "PORT",
      "LOG_LEVEL",
      "DUNNING_RETRY_DAYS",
      "GATEWAY_API_KEY",
      "GATEWAY_BASE_URL",
      "GATEWAY_LEGACY_URL",
      "TOKEN_ENCRYPTION_KEY",
    ]);
    expect(problems.find((p) => p.variable === "DUNNING_RETRY_DAYS")?.message).toMatch(/Visa/);
  });

  it("reports a dunning action that does not parse once, from the schema", () => {
    const problems = problemsOf(() => loadEngineConfig({ DUNNING_TERMINAL_ACTION: "shrug", PORT: "x" }));
    expect(problems.map((p) => p.variable).sort()).toEqual(["DUNNING_TERMINAL_ACTION", "PORT"]);
  });

  it("returns the settings when all is well, an empty variable counting as unset", () => {
    const config = loadEngineConfig({ DATABASE_URL: "postgres://127.0.0.1/billing", PORT: "" }, [
      "DATABASE_URL",
    ]);
    expect(config.PORT).toBe(3000);
    expect(() => loadEngineConfig({ DATABASE_URL: "" }, ["DATABASE_URL"])).toThrow(
      /DATABASE_URL: required to run the engine/,
    );
  });
});

describe("engineNeeds", () => {
  it("leaves out what the caller supplies, and wants the token key only in production", () => {
    expect(engineNeeds({})).toEqual([
      "DATABASE_URL",
      "GATEWAY_API_KEY",
      "GATEWAY_BASE_URL",
      "GATEWAY_LEGACY_URL",
    ]);
    expect(engineNeeds({ NODE_ENV: "production" }, { database: true, gateway: true })).toEqual([
      "TOKEN_ENCRYPTION_KEY",
    ]);
  });
});
