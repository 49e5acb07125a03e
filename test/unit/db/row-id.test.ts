import { describe, expect, it } from "vitest";
import { z } from "zod";
import { newRowId } from "../../../src/db/row-id.js";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("newRowId", () => {
  it.each([
    [0, "00000000-0000"],
    [1_795_810_311_457, "01a21ea2-bd21"],
    [2 ** 48 - 1, "ffffffff-ffff"],
  ])("begins with the milliseconds %i as %s, then version 7 and variant 10", (ms, prefix) => {
    const id = newRowId(ms);
    expect(id.startsWith(prefix)).toBe(true);
    expect(id).toMatch(V7);
    expect(z.uuid().safeParse(id).success).toBe(true);
  });

  it("sorts by the time it was made, and two made in one millisecond differ", () => {
    const earlier = newRowId(1_795_810_311_457);
    const later = newRowId(1_795_810_311_458);
    expect(earlier < later).toBe(true);
    const same = new Set(Array.from({ length: 1000 }, () => newRowId(1_795_810_311_457)));
    expect(same.size).toBe(1000);
  });
});
