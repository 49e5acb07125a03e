/**
 * Exit codes: 0 done, 1 the work failed (a refusal, the gateway, the database), 2 the command line
 * or the configuration is wrong, 3 a bulk run finished but rejected some rows.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, partial: 3 } as const;

/** A failure the CLI explains itself: the message is printed as is, after "error: ". */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** A bad option value, named the way the user typed it: `--amount: "10.123" has …`. */
export function optionError(option: string, message: string): CliError {
  return new CliError(`${option}: ${message}`, EXIT.usage);
}
