import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { distIsFresh } from "../../../scripts/build-state.mjs";
import { buildProgram, type CliIo, runCli } from "../../../src/cli/index.js";
import { seedSubscription } from "../../db/fixtures.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { jsonOf, REPO_ROOT, runNode } from "./support.js";

/**
 * The compiled CLI (dist/, `npm run build`) and the bin that picks it: the same help and refusals
 * as the sources for every command, its version, a database command, and the laziness that makes
 * it start at once (what `--help` and one command load). dist/ is built here when it is missing or
 * stale; `npm ci` has built it already in CI.
 */

const BIN = path.join(REPO_ROOT, "scripts", "billing.mjs");
type RunCli = (argv: readonly string[], io: CliIo) => Promise<number>;

let compiled: RunCli;
let database: TestDatabase;
let hooksDir: string;

function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, "scripts", "build.mjs")], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`build failed (${code}): ${stderr}`)),
    );
  });
}

/** One command line through an in-process runCli, everything it printed collected. */
async function inProcess(run: RunCli, args: readonly string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const code = await run(args, { stdout, stderr, env: { LOG_LEVEL: "silent" } });
  return { code, stdout: stdout.read()?.toString() ?? "", stderr: stderr.read()?.toString() ?? "" };
}

/** Every command's path, from the program's definitions. */
function commandPaths(): string[][] {
  const paths: string[][] = [[]];
  const walk = (command: Command, prefix: string[]) => {
    for (const sub of command.commands) {
      paths.push([...prefix, sub.name()]);
      walk(sub, [...prefix, sub.name()]);
    }
  };
  walk(
    buildProgram(() => async () => {}),
    [],
  );
  return paths;
}

/** The modules a run of the bin loaded (ESM load hook), as paths relative to the repository. */
async function loadedBy(args: readonly string[], env: NodeJS.ProcessEnv) {
  const list = path.join(hooksDir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  const run = await runNode(
    ["--import", pathToFileURL(path.join(hooksDir, "register.mjs")).href, BIN, ...args],
    {
      ...env,
      LOADED_LIST: list,
    },
  );
  const root = pathToFileURL(REPO_ROOT).href;
  const loaded = (await readFile(list, "utf8"))
    .split("\n")
    .filter((url) => url.startsWith(root))
    .map((url) => url.slice(root.length));
  return { run, loaded };
}

beforeAll(async () => {
  if (!distIsFresh()) await build();
  ({ runCli: compiled } = (await import(
    pathToFileURL(path.join(REPO_ROOT, "dist", "src", "cli", "index.js")).href
  )) as { runCli: RunCli });
  database = await createTestDatabase();
  hooksDir = await mkdtemp(path.join(tmpdir(), "billing-loaded-"));
  await writeFile(
    path.join(hooksDir, "hooks.mjs"),
    'import { appendFileSync } from "node:fs";\n' +
      "export async function load(url, context, next) {\n" +
      '  appendFileSync(process.env.LOADED_LIST, url + "\\n");\n' +
      "  return next(url, context);\n}\n",
  );
  await writeFile(
    path.join(hooksDir, "register.mjs"),
    'import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n',
  );
}, 300_000);

afterAll(async () => {
  await database?.drop();
  if (hooksDir) await rm(hooksDir, { recursive: true, force: true });
});

describe("the compiled CLI", () => {
  it("prints the help of every command, and refuses bad command lines, exactly as the sources do", async () => {
    const lines = [
      ...commandPaths().map((command) => [...command, "--help"]),
      [],
      ["nope"],
      ["plans", "create", "--name", "P", "--amount", "1", "--currency", "QAR", "--interval", "fortnight"],
      ["subscriptions", "show", "not-an-id"],
      ["clock", "advance", "5m"],
      ["keys", "create", "--name", "k", "--read-only", "--allow", "POST /v1/plans"],
    ];
    expect(lines.length).toBeGreaterThan(40);
    for (const args of lines) {
      expect([args, await inProcess(compiled, args)]).toEqual([args, await inProcess(runCli, args)]);
    }
  });

  it("runs from the bin: --help, --version and a database command", async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "silent" };
    const help = await runNode([BIN, "--help"], env);
    expect(help).toEqual({ code: 0, stdout: (await inProcess(runCli, ["--help"])).stdout, stderr: "" });

    const { version } = JSON.parse(await readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    expect(await runNode([BIN, "--version"], env)).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });

    const seeded = [await seedSubscription(database.db), await seedSubscription(database.db)];
    const listed = jsonOf<{ data: { id: string; status: string }[] }>(
      await runNode([BIN, "subscriptions", "list", "--json"], { ...env, DATABASE_URL: database.url }),
    );
    expect(listed.data.map(({ id, status }) => ({ id, status }))).toEqual(
      seeded.map(({ subscription }) => ({ id: subscription.id, status: "active" })),
    );
  });

  it("loads a command's modules only when it runs", async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "silent" };
    const help = await loadedBy(["--help"], env);
    expect(help.run.code).toBe(0);
    expect(help.loaded).toContain("dist/scripts/billing.js");
    // Commander's definitions and the lists its help shows; no service, no database, no logger.
    const beyondDefinitions = help.loaded.filter(
      (file) =>
        file.startsWith("dist/src/") &&
        // Command definitions (commands.ts and its *-command.ts parts) and plain option parsers.
        !/^dist\/src\/cli\/(index|program|actions|commands|[a-z-]+-command|errors|exit|options|tier-option|version)\.js$/.test(
          file,
        ) &&
        !/^dist\/src\/(billing\/(interval-units|discount|rounding|proration-behaviors|subscription-states|charge-states|state-machine|customer-messages)|customers\/languages|imports\/columns)\.js$/.test(
          file,
        ),
    );
    expect(beyondDefinitions).toEqual([]);
    expect(
      help.loaded.filter((file) => /node_modules\/(zod|drizzle-orm|postgres|pino|luxon)\//.test(file)),
    ).toEqual([]);

    const list = await loadedBy(["subscriptions", "list", "--json"], { ...env, DATABASE_URL: database.url });
    expect(list.run.code).toBe(0);
    expect(list.loaded).toContain("dist/src/cli/actions/subscriptions.js");
    // A read needs the database alone: not the engine's composition root, queues, gateway or server.
    expect(
      list.loaded.filter((file) =>
        /^dist\/src\/(app\/(index|bootstrap|tick)\.js|(queue|gateway|http|cancellation|charging)\/)|node_modules\/(bullmq|fastify|ioredis)\//.test(
          file,
        ),
      ),
    ).toEqual([]);
  });
});
