import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { builtAt, distIsFresh, STAMP } from "../../../scripts/build-state.mjs";

/** A tree shaped like the repository, every file dated `at` (ms), built at `built` when given. */
function tree(at: number, built?: number): string {
  const root = mkdtempSync(path.join(tmpdir(), "build-state-"));
  for (const file of [
    "src/cli/program.ts",
    "src/cli/README.md",
    "workers/all.ts",
    "drizzle/0000_init.sql",
    "tsconfig.json",
  ]) {
    put(root, file, at);
  }
  for (const folder of ["src/cli", "src", "workers", "drizzle"]) date(path.join(root, folder), at);
  if (built !== undefined) {
    mkdirSync(path.join(root, "dist"), { recursive: true });
    writeFileSync(path.join(root, STAMP), JSON.stringify({ started_at: built }));
  }
  return root;
}

function date(target: string, at: number): void {
  utimesSync(target, at / 1000, at / 1000);
}

function put(root: string, file: string, at: number): void {
  const target = path.join(root, file);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, "x");
  date(target, at);
}

const roots: string[] = [];
const made = (root: string) => {
  roots.push(root);
  return root;
};
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

// In the past, so what the tests change or delete now is newer than the build.
const SOURCES = Date.now() - 3_600_000;
const BUILD = SOURCES + 60_000;

describe("distIsFresh", () => {
  it("is fresh when no input changed since the build started, inputs that do not exist included", () => {
    const root = made(tree(SOURCES, BUILD));
    expect(builtAt(root)).toBe(BUILD);
    expect(distIsFresh(root)).toBe(true);
  });

  it("is stale without a complete build", () => {
    expect(distIsFresh(made(tree(SOURCES)))).toBe(false);
    const root = made(tree(SOURCES, BUILD));
    writeFileSync(path.join(root, STAMP), "{");
    expect(distIsFresh(root)).toBe(false);
  });

  it("is stale once a source, a new file deep in a folder, a migration or the compiler settings changed", () => {
    for (const changed of [
      "src/cli/program.ts",
      "src/cli/actions/new.ts",
      "workers/all.ts",
      "drizzle/0009_next.sql",
      "tsconfig.json",
      "tsconfig.build.json",
      "scripts/billing.ts",
    ]) {
      const root = made(tree(SOURCES, BUILD));
      put(root, changed, BUILD + 1);
      expect([changed, distIsFresh(root)]).toEqual([changed, false]);
    }
  });

  it("is stale once a source was deleted (its folder changed)", () => {
    const root = made(tree(SOURCES, BUILD));
    rmSync(path.join(root, "src/cli/program.ts"));
    expect(readdirSync(path.join(root, "src/cli"))).toEqual(["README.md"]);
    expect(distIsFresh(root)).toBe(false);
  });

  it("ignores what the build does not read", () => {
    const root = made(tree(SOURCES, BUILD));
    put(root, "test/unit/x.test.ts", BUILD + 1);
    put(root, "README.md", BUILD + 1);
    put(root, "scripts/bench.ts", BUILD + 1);
    date(path.join(root, "src/cli/README.md"), BUILD + 1); // edited in place: its folder is unchanged
    expect(distIsFresh(root)).toBe(true);
  });
});
