import { describe, expect, it } from "vitest";
import { parseDuration } from "../../../src/cli/actions/clock.js";
import { CliError } from "../../../src/cli/errors.js";

describe("parseDuration", () => {
  it("reads ISO 8601 durations and shorthands", () => {
    expect(parseDuration("P1M").toObject()).toEqual({ months: 1 });
    expect(parseDuration("PT12H").toObject()).toEqual({ hours: 12 });
    expect(parseDuration("1mo").toObject()).toEqual({ months: 1 });
    expect(parseDuration("30d").toObject()).toEqual({ days: 30 });
    expect(parseDuration("2w").toObject()).toEqual({ weeks: 2 });
    expect(parseDuration("15min").toObject()).toEqual({ minutes: 15 });
    expect(parseDuration("1y").toObject()).toEqual({ years: 1 });
  });

  it("refuses what does not move the clock forwards, naming the argument", () => {
    for (const bad of ["0d", "P0D", "5m", "month", "-1d", "", "-P1D", "PT-1H", "P1M-29D"]) {
      expect(() => parseDuration(bad)).toThrow(CliError);
    }
    expect(() => parseDuration("5m")).toThrow(/DURATION: "5m" is not a forward duration/);
  });
});
