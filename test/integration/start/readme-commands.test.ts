import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { charges, subscriptions } from "../../../src/db/schema/index.js";
import { createLogger } from "../../../src/logger/index.js";
import { type EngineProcess, startEngineProcess } from "../../../src/runtime/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { type InProcessCli, inProcessCli } from "../../support/in-process-cli.js";
import { REPO_ROOT, runProcess, waitFor } from "../cli/support.js";
import {
  fencedBlocks,
  inlineCode,
  type NpmCommand,
  npmCommand,
  shellCommands,
  shellComment,
  shellWords,
} from "./readme.js";

/**
 * The commands README.md shows work as shown, read from the README itself so that a change to it
 * that breaks one fails here:
 * - every `npm …` it shows (its ```sh blocks, its inline code, and any `npm run <script>` in its
 *   text) names a script package.json has, or a command npm has;
 * - its CLI walkthrough (the ```sh block of `billing …` lines) runs, line by line and as printed
 *   (no --json), against an engine running as `npm start` runs it (HTTP server, scheduler and
 *   workers in one process, the gateway simulator in-process, the billing clock controllable),
 *   joined through its runtime.json as the CLI joins `npm start`'s. Each `<id>` is the id the
 *   command before it printed for that kind of thing (`--customer <id>` a customer's, `subscriptions
 *   show <id>` a subscription's); the checkout `enroll` prints is paid with the card and CVV its
 *   comment names; what the comments promise is then checked: after `clock advance` the next period
 *   is charged, by the engine alone; `portal-link` prints a link that opens the portal;
 * - the CLI commands it shows as `npm run -s billing -- …` with no placeholder run too.
 *
 * The engine ticks every second here (BILLING_TICK_SECONDS=1), so the waits below are short; they
 * are polls with deadlines, never sleeps. `npm start` ticks every 60 s: there, the first period and
 * the one `clock advance` brings are charged at the next tick, up to a minute after the command.
 * The test waits for the first period's charge before the clock moves, so the order is always
 * the same (moved before it, one tick charges both periods).
 */

const README = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
const PACKAGE = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
};
const START = "2026-01-15T09:00:00.000Z";

interface ShellLine {
  /** The line as the README prints it. */
  text: string;
  /** Its simple commands, each as its words, the comment left out. */
  commands: string[][];
  comment: string;
}

const shBlocks = fencedBlocks(README)
  .filter((block) => ["sh", "shell", "bash", "console"].includes(block.lang))
  .map((block) => ({
    ...block,
    shell: block.lines
      .filter((text) => text.trim() !== "")
      .map((text): ShellLine => ({ text, commands: shellCommands(text), comment: shellComment(text) })),
  }));

/** The sh block whose commands are `billing …`: the CLI walkthrough. */
const walkthroughs = shBlocks.filter((block) =>
  block.shell.some((line) => line.commands[0]?.[0] === "billing"),
);

/** Every npm command the README shows, where it shows it. */
function npmCommandsShown(): { where: string; npm: NpmCommand }[] {
  const found: { where: string; npm: NpmCommand }[] = [];
  for (const block of shBlocks) {
    for (const line of block.shell) {
      for (const words of line.commands) {
        const npm = npmCommand(words);
        if (npm) found.push({ where: `\`\`\`sh block of line ${block.line}: ${line.text.trim()}`, npm });
      }
    }
  }
  for (const span of inlineCode(README)) {
    for (const words of shellCommands(span)) {
      const npm = npmCommand(words);
      if (npm) found.push({ where: `inline \`${span}\``, npm });
    }
  }
  // `npm run <script>` wherever else it appears, e.g. in the sample output of `npm start`.
  const text = README.replace(/\s+/g, " ");
  for (const match of text.matchAll(/\bnpm(?: -\S+)* (?:run|run-script)(?: -\S+)* ([A-Za-z0-9:._-]+)/g)) {
    const npm = npmCommand(match[0].split(" "));
    if (npm) found.push({ where: `text: ${match[0]}`, npm });
  }
  return found;
}

/** npm commands that run the package.json script of the same name. */
const SCRIPT_COMMANDS = new Set(["start", "test", "t", "tst", "stop", "restart"]);

describe("the npm commands README.md shows", () => {
  const shown = npmCommandsShown();

  it("are found: the two commands, and the CLI through npm run", () => {
    const texts = shown.map(({ npm }) => npm.text);
    expect(texts).toEqual(expect.arrayContaining(["npm ci", "npm start", "npm test"]));
    expect(shown.some(({ npm }) => npm.kind === "run" && npm.script === "billing")).toBe(true);
  });

  it("name scripts of package.json, or commands npm has", async () => {
    const problems: string[] = [];
    const builtins = new Set<string>();
    for (const { where, npm } of shown) {
      if (npm.kind === "run") {
        if (!Object.hasOwn(PACKAGE.scripts, npm.script))
          problems.push(`${where}: package.json has no script "${npm.script}"`);
      } else if (SCRIPT_COMMANDS.has(npm.command)) {
        const script = npm.command.startsWith("t") ? "test" : npm.command;
        if (!Object.hasOwn(PACKAGE.scripts, script))
          problems.push(`${where}: package.json has no script "${script}"`);
      } else {
        builtins.add(npm.command);
      }
    }
    for (const command of builtins) {
      // `npm <command> --help` prints its usage and exits 0 for a command npm has, 1 otherwise.
      const run = await runProcess("npm", [command, "--help"], {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
      });
      if (run.code !== 0) problems.push(`npm ${command}: not an npm command (${run.stdout.split("\n")[0]})`);
    }
    // `npm ci` installs exactly what the lockfile says, and refuses without one.
    if (builtins.has("ci") && !existsSync(path.join(REPO_ROOT, "package-lock.json")))
      problems.push("npm ci: there is no package-lock.json");
    expect(problems).toEqual([]);
  }, 30_000);

  it("put `billing` on the PATH with npm link: package.json's bin names it", () => {
    if (!shown.some(({ npm }) => npm.kind === "command" && npm.command === "link")) return;
    expect(PACKAGE.bin.billing).toBeDefined();
    expect(existsSync(path.join(REPO_ROOT, PACKAGE.bin.billing!))).toBe(true);
  });

  it("are the only commands its ```sh blocks show, apart from the billing walkthrough", () => {
    const unchecked = shBlocks
      .flatMap((block) => block.shell.flatMap((line) => line.commands))
      .filter((words) => words[0] !== "npm" && words[0] !== "billing")
      .map((words) => words.join(" "));
    expect(unchecked, "a command this test does not check; teach it").toEqual([]);
  });
});

describe("the CLI walkthrough in README.md, against a running engine", () => {
  let database: TestDatabase;
  let cli: InProcessCli;
  let engine: EngineProcess;
  /** The engine's error log lines (all its lines at TEST_LOG_LEVEL, also printed), for failure messages. */
  const engineLog: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    // The CLI with no configuration but its data directory, where the engine records itself.
    cli = await inProcessCli({}, "readme");
    // `npm start` with a database of this test's own and free ports: the engine in one process,
    // the simulator in-process, the queues on the same PostgreSQL and the clock controllable, as
    // zero-config chooses them; it writes runtime.json in the CLI's data directory.
    engine = await startEngineProcess({
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "test",
        BILLING_DATA_DIR: cli.dataDir,
        DATABASE_URL: database.url,
        GATEWAY_SIM_PORT: "0",
        PORT: "0",
        HOST: "127.0.0.1",
        BILLING_CLOCK_START: START,
        BILLING_TICK_SECONDS: "1",
        LOG_LEVEL: "silent",
      },
      logger: createLogger(
        { level: process.env.TEST_LOG_LEVEL || "error" },
        {
          write(line: string) {
            engineLog.push(line);
            if (process.env.TEST_LOG_LEVEL) process.stdout.write(line);
          },
        },
      ),
    });
    expect(engine.parts).toEqual({ http: true, scheduler: true, workers: true });
    expect(engine.runtimeFile).toBe(path.join(cli.dataDir, "runtime.json"));
  }, 60_000);

  afterAll(async () => {
    await engine?.close();
    await database?.drop();
    await cli?.close();
  });

  /** What the command printed for a person: "key  value" lines (src/text/table.ts `fields`). */
  function fieldsOf(stdout: string): Record<string, string> {
    const record: Record<string, string> = {};
    for (const line of stdout.split("\n")) {
      const match = /^(\S+) +(.*)$/.exec(line);
      if (match) record[match[1]!] = match[2]!.trim();
    }
    return record;
  }

  const singular = (noun: string) => noun.replace(/ies$/, "y").replace(/s$/, "");

  /** The kind of thing a placeholder stands for: `--customer <id>`, `subscriptions show <id>`. */
  function kindOf(args: readonly string[], index: number): string {
    const name = /^<(.+)>$/.exec(args[index]!)![1]!;
    if (name !== "id") return name.replace(/_id$/, "");
    const before = args[index - 1];
    if (before?.startsWith("--")) return before.slice(2);
    return singular(args[0]!);
  }

  /**
   * The subscription's charges once at least `count` exist and the engine has settled each (paid,
   * or left retrying, needing review…), oldest period first.
   */
  const settledCharges = (what: string, subscriptionId: string, count: number) =>
    waitFor(
      what,
      async () => {
        const rows = await engine.ctx.db
          .select()
          .from(charges)
          .where(eq(charges.subscriptionId, subscriptionId))
          .orderBy(asc(charges.periodStart));
        const settled = rows.every((row) => row.status !== "scheduled" && row.status !== "processing");
        return rows.length >= count && settled ? rows : undefined;
      },
      { timeoutMs: 15_000 },
    );
  const statusesOf = (rows: { periodStart: Date; status: string; lastDeclineCode: string | null }[]) =>
    rows.map((row) => `${row.periodStart.toISOString()} ${row.status} ${row.lastDeclineCode ?? ""}`);

  it("runs as shown: enrols, pays the checkout, charges the next period a month later, opens the portal", async () => {
    expect(walkthroughs, "one ```sh block of billing commands").toHaveLength(1);
    const lines = walkthroughs[0]!.shell;
    for (const line of lines)
      expect(
        line.commands.map((words) => words[0]),
        line.text,
      ).toEqual(["billing"]);
    const commandsRun = lines.map((line) => shellWords(line.text).slice(1).slice(0, 2).join(" "));
    // What the comments below are checked against; a walkthrough without them is not this one.
    expect(commandsRun).toEqual(
      expect.arrayContaining([
        "enroll --customer",
        "clock advance",
        "subscriptions show",
        "portal-link --customer",
      ]),
    );

    /** The ids printed so far, by kind: the last one printed of each. */
    const ids = new Map<string, string>();
    let subscriptionId: string | undefined;
    let firstPeriodEnd: Date | undefined;

    for (const line of lines) {
      const words = shellWords(line.text);
      const args = words.slice(1).map((word, index, all) => {
        if (!/^<.+>$/.test(word)) return word;
        const kind = kindOf(all, index);
        const id = ids.get(kind);
        if (id === undefined) throw new Error(`${line.text.trim()}: no ${kind} id printed before ${word}`);
        return id;
      });
      const run = await cli.billing(...args);
      const where = `${line.text.trim()}\n(ran: billing ${args.join(" ")})\nstderr: ${run.stderr}\nstdout: ${run.stdout}\nengine log: ${engineLog.join("")}`;
      expect(run.code, where).toBe(0);
      const printed = fieldsOf(run.stdout);
      // A record it printed names its own id (`id`, by the command's noun) and others (`<kind>_id`).
      for (const [key, value] of Object.entries(printed)) {
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) continue;
        if (key === "id") ids.set(singular(args[0]!), value);
        else if (key.endsWith("_id")) ids.set(key.slice(0, -3), value);
      }

      const [command, subcommand] = args;
      if (printed.checkout_url !== undefined) {
        // "→ checkout_url: pay with 4111111111111111, CVV 123": paid on the hosted checkout.
        const pay = /pay with (\d{12,19}), CVV (\d{3,4})/.exec(line.comment);
        expect(pay, `${where}\nthe comment names no card to pay the checkout with`).not.toBeNull();
        subscriptionId = printed.subscription_id;
        expect(subscriptionId, where).toBeDefined();
        const checkout = new URL(printed.checkout_url);
        expect(checkout.origin).toBe(engine.simulator!.url);
        const response = await fetch(`${checkout.origin}/_sim/pay`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            checkout_url: printed.checkout_url,
            card_number: pay![1],
            expiry: "12/30",
            cvv: pay![2],
            name: "Aisha",
          }),
        });
        const reply = (await response.json()) as { status: string; redirect_url?: string };
        expect(reply, where).toMatchObject({ status: "SUCCESS" });
        // The browser follows the checkout's redirect into the engine, which completes the enrolment.
        const landed = await fetch(reply.redirect_url!);
        const body = await landed.text();
        expect(landed.status, `${where}\n${body}\nengine log: ${engineLog.join("")}`).toBe(200);
        const [subscription] = await engine.ctx.db
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.id, subscriptionId!));
        expect(subscription?.status).toBe("active");
        // The engine bills the first period on its own (its tick and charge worker); waited for, so
        // the clock moves after it, as it does when a person reads the README at a terminal.
        const billed = await settledCharges("the first period's charge", subscriptionId!, 1);
        expect(statusesOf(billed), where).toEqual([`${subscription!.billingAnchor!.toISOString()} paid `]);
        firstPeriodEnd = billed[0]!.periodEnd;
      }

      if (command === "clock" && subcommand === "advance") {
        expect(subscriptionId, "the clock moves after a subscription is enrolled").toBeDefined();
        expect(printed.simulator, where).toBe("moved");
        expect(
          Date.parse(printed.now!),
          `${where}\nthe clock is not past the first period, which ends ${firstPeriodEnd!.toISOString()}`,
        ).toBeGreaterThanOrEqual(firstPeriodEnd!.getTime());
        // "a month later: the next period is charged": by the running engine, nothing else run.
        const billed = await settledCharges("the next period's charge", subscriptionId!, 2);
        expect(statusesOf(billed), where).toEqual([
          `${billed[0]!.periodStart.toISOString()} paid `,
          `${firstPeriodEnd!.toISOString()} paid `,
        ]);
        expect(billed[1]!.amountMinor).toBe(billed[0]!.amountMinor);
      }

      if (command === "subscriptions" && subcommand === "show") {
        expect(printed, where).toMatchObject({ id: subscriptionId, status: "active" });
        // Its current period is the second one, the one just charged.
        expect(Date.parse(printed.current_period_start!), where).toBe(firstPeriodEnd!.getTime());
      }

      if (command === "portal-link") {
        expect(printed.customer_id, where).toBe(ids.get("customer"));
        expect(printed.url, where).toMatch(/^https?:\/\/[^/]+\/portal\/open\?token=[A-Za-z0-9_-]+$/);
        // The link opens: the engine's page with the button that signs the customer in.
        const url = new URL(printed.url!);
        expect(url.origin).toBe(new URL(engine.ctx.publicUrl).origin);
        const page = await fetch(new URL(`${url.pathname}${url.search}`, engine.url));
        expect(page.status, where).toBe(200);
        expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      }
    }

    expect(firstPeriodEnd, "the walkthrough enrolled and paid a subscription").toBeDefined();
  }, 60_000);

  it("runs the CLI commands it shows as `npm run billing -- …` (those with no placeholder)", async () => {
    const shown = npmCommandsShown().filter(
      ({ npm }) => npm.kind === "run" && npm.script === "billing" && npm.args.length > 0,
    );
    const runnable = shown.filter(({ npm }) => !npm.args.some((arg) => /^<.+>$/.test(arg)));
    // `npm run -s billing -- keys create --name ops`, for the dashboard's key.
    expect(runnable.length).toBeGreaterThan(0);
    for (const { where, npm } of runnable) {
      const run = await cli.billing(...npm.args);
      expect(run.code, `${where}\nstderr: ${run.stderr}`).toBe(0);
      expect(run.stdout.trim(), where).not.toBe("");
    }
  });
});
