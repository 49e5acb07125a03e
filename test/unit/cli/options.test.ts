import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { integer, uuid } from "../../../src/cli/options.js";

describe("uuid", () => {
  it("accepts exactly the ids zod's z.uuid() accepts, which the services check with", () => {
    const samples = [
      "00000000-0000-4000-8000-000000000000",
      "0190f3a2-7b1c-7d4e-9f00-123456789abc",
      "6BA7B810-9DAD-11D1-80B4-00C04FD430C8",
      "00000000-0000-0000-0000-000000000000",
      "ffffffff-ffff-ffff-ffff-ffffffffffff",
      "00000000-0000-0000-8000-000000000000",
      "00000000-0000-9000-8000-000000000000",
      "00000000-0000-4000-c000-000000000000",
      "00000000-0000-4000-8000-00000000000",
      "00000000-0000-4000-8000-0000000000000",
      "00000000000040008000000000000000",
      " 00000000-0000-4000-8000-000000000000",
      "g0000000-0000-4000-8000-000000000000",
      "x",
      "",
    ];
    for (const sample of samples) {
      const accepted = (() => {
        try {
          return uuid(sample) === sample;
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidArgumentError);
          return false;
        }
      })();
      expect([sample, accepted]).toEqual([sample, z.uuid().safeParse(sample).success]);
    }
  });
});

describe("integer", () => {
  it("takes whole numbers within the bounds only", () => {
    const port = integer(0, 65_535);
    expect(port("0")).toBe(0);
    expect(port("65535")).toBe(65_535);
    for (const bad of ["65536", "-1", "1.5", "1e3", "", "x"]) {
      expect(() => port(bad)).toThrow(/expected a whole number from 0 to 65535/);
    }
  });
});
