import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/index.js";

/** Command lines refused before anything connects: no database is needed. */
async function run(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const code = await runCli(args, { stdout, stderr, env: { LOG_LEVEL: "silent" } });
  return { code, stdout: stdout.read()?.toString() ?? "", stderr: stderr.read()?.toString() ?? "" };
}

describe("runCli", () => {
  it("prints help and exits 0", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    for (const command of [
      "plans",
      "customers",
      "enroll",
      "subscriptions",
      "charges",
      "dunning",
      "clock",
      "keys",
      "serve",
    ]) {
      expect(help.stdout).toContain(command);
    }
  });

  it("exits 2 naming a missing option or an unknown command", async () => {
    const missing = await run(["plans", "create", "--name", "Pro", "--amount", "1", "--currency", "QAR"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--interval");
    expect(missing.stdout).toBe("");
    expect((await run(["nope"])).code).toBe(2);
  });

  it("refuses a bad option value by name", async () => {
    const bad = await run([
      "plans",
      "create",
      "--name",
      "P",
      "--amount",
      "1",
      "--currency",
      "QAR",
      "--interval",
      "fortnight",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--interval");
    const id = await run(["enroll", "--customer", "x", "--plan", "y"]);
    expect(id.code).toBe(2);
    expect(id.stderr).toMatch(/--customer <id>.*expected an id/);
  });

  it("refuses --csv together with --customer before connecting", async () => {
    const both = await run([
      "enroll",
      "--csv",
      "f.csv",
      "--customer",
      "00000000-0000-4000-8000-000000000000",
      "--json",
    ]);
    expect(both).toMatchObject({ code: 2, stdout: "" });
    expect(both.stderr).toContain("error: --csv: give either --csv or --customer and --plan");
  });
});
