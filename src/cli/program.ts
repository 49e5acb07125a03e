import { Command, CommanderError } from "commander";
import type { Actions } from "./actions.js";
import type { Cli } from "./cli.js";
import { registerCommands } from "./commands.js";
import { EXIT } from "./errors.js";
import type { CliIo } from "./output.js";
import { engineVersion } from "./version.js";

/**
 * The `billing` program. Building it costs commander's definitions only (see actions.ts): a
 * command's modules, the logger and the engine's services load when that command runs.
 */
export function buildProgram(action: Actions): Command {
  const program = new Command("billing")
    .description(
      "Operate the billing engine. It connects like the engine does (DATABASE_URL, GATEWAY_*, …); with no " +
        "DATABASE_URL it uses the zero-config engine's database under BILLING_DATA_DIR (default .data).",
    )
    .version(engineVersion(), "-V, --version", "print the engine's version")
    .option("--json", "print one JSON document on stdout and nothing else")
    .showHelpAfterError("(run with --help for usage)");
  registerCommands(program, action);
  return program;
}

/** Applies exitOverride and the streams to the program and every subcommand. */
function configure(command: Command, io: CliIo): void {
  command.exitOverride();
  command.configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
  });
  for (const sub of command.commands) configure(sub, io);
}

/**
 * Runs one command line (without the node and script arguments) and returns the exit code. Errors
 * are written to stderr as `error: <what to fix>`; nothing of them reaches stdout.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let cli: Cli | undefined;
  const action: Actions =
    (load, name) =>
    async (...args) => {
      const [implementation, { Cli }, { createLogger }] = await Promise.all([
        load(),
        import("./cli.js"),
        import("../logger/index.js"),
      ]);
      // Logs go to stderr, quiet unless asked: a command's output is its result.
      cli ??= new Cli(
        io,
        createLogger({ level: io.env.LOG_LEVEL, fallbackLevel: "warn", name: "billing-cli" }, io.stderr),
      );
      await implementation[name](cli, ...(args as never[]));
    };
  const program = buildProgram(action);
  configure(program, io);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return cli?.exitCode ?? EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed its message (or the help) already.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const { toCliError } = await import("./failures.js");
    const failure = toCliError(error);
    io.stderr.write(`error: ${failure.message}\n`);
    return failure.exitCode;
  }
}
