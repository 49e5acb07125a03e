import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { fields, Output, table } from "../../../src/cli/output.js";

function io(tty: boolean) {
  const stdout = Object.assign(new PassThrough(), { isTTY: tty });
  const stderr = new PassThrough();
  const read = (stream: PassThrough) => stream.read()?.toString() ?? "";
  return { io: { stdout, stderr, env: {} }, out: () => read(stdout), err: () => read(stderr) };
}

describe("Output", () => {
  it("prints one JSON document with --json, notes on stderr", () => {
    const t = io(false);
    const output = new Output(t.io, true);
    output.note("a remark");
    output.result({ id: "x", n: 1 }, () => "human");
    expect(JSON.parse(t.out())).toEqual({ id: "x", n: 1 });
    expect(t.err()).toBe("a remark\n");
  });

  it("prints the human text without --json", () => {
    const t = io(false);
    new Output(t.io, false).result({ id: "x" }, () => "id x");
    expect(t.out()).toBe("id x\n");
  });

  it("shows no progress bar when stdout is piped or for --json", () => {
    for (const [tty, json] of [
      [false, false],
      [true, true],
    ] as const) {
      const t = io(tty);
      const progress = new Output(t.io, json).progress(3, "working");
      progress.tick("a");
      progress.stop();
      expect(t.out()).toBe("");
      expect(t.err()).toBe("");
    }
  });
});

describe("table and fields", () => {
  it("aligns columns and shows missing values as -", () => {
    const rows = [
      { id: "a", status: "active", n: 10 },
      { id: "bbbb", status: null, n: 2 },
    ];
    expect(table(rows, ["id", "status", "n"]).split("\n")).toEqual([
      "id    status  n",
      "a     active  10",
      "bbbb  -       2",
    ]);
    expect(table([], ["id"])).toBe("(none)");
  });

  it("lists a record's fields", () => {
    expect(fields({ id: "x", amount: "1.00", tags: ["a"], none: null })).toBe(
      'id      x\namount  1.00\ntags    ["a"]\nnone    -',
    );
  });
});
