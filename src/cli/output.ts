import { createRequire } from "node:module";

/** Rows as columns and records as lines: the text every command's human output is made of. */
export { fields, table } from "../text/index.js";

/** The streams and environment a CLI run uses; tests pass their own. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export interface Progress {
  tick(detail?: string): void;
  stop(): void;
}

const noProgress: Progress = { tick() {}, stop() {} };

/**
 * Everything a command shows. With --json, stdout carries exactly one JSON document (the result)
 * and nothing else, so scripts can pipe it; notes, progress and logs go to stderr. Without it the
 * result is text for a person.
 */
export class Output {
  constructor(
    readonly io: CliIo,
    readonly json: boolean,
  ) {}

  /** The command's result: `document` with --json, else the text `human` renders. */
  result(document: unknown, human: () => string): void {
    this.io.stdout.write(this.json ? `${JSON.stringify(document, null, 2)}\n` : `${human()}\n`);
  }

  /** A remark beside the result (on stderr, so --json output stays one document). */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  /** A progress bar for a person at a terminal; nothing for --json or when stdout is piped. */
  progress(total: number, label: string): Progress {
    if (this.json || !this.io.stdout.isTTY || total === 0) return noProgress;
    // Required here, synchronously: only a person at a terminal sees a bar, and scripts calling the
    // CLI once per record should not pay for loading it.
    const { SingleBar } = createRequire(import.meta.url)("cli-progress") as typeof import("cli-progress");
    const bar = new SingleBar({
      format: `${label} [{bar}] {value}/{total} {detail}`,
      stream: this.io.stderr,
      hideCursor: true,
      clearOnComplete: false,
    });
    bar.start(total, 0, { detail: "" });
    return {
      tick: (detail = "") => bar.increment(1, { detail }),
      stop: () => bar.stop(),
    };
  }
}
