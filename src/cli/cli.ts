import type { Command } from "commander";
import type { EngineContext } from "../context/index.js";
import type { Logger } from "../logger/index.js";
import { type CliIo, Output } from "./output.js";
import { type DatabaseContext, openDatabaseSession, openEngineSession, type Session } from "./session.js";

/** Recorded as the actor of what the CLI changes, as events name their actors. */
export const CLI_ACTOR = "cli";

/** What every command gets: the streams, a logger on stderr, and a way to reach the engine. */
export class Cli {
  /** Set by a command that finished but wants a non-zero exit (a bulk run with rejected rows). */
  exitCode = 0;

  constructor(
    readonly io: CliIo,
    readonly logger: Logger,
  ) {}

  output(command: Command): Output {
    return new Output(this.io, Boolean(command.optsWithGlobals().json));
  }

  /** Runs `work` with a database, a billing clock and the config; no gateway needed. */
  withDatabase<T>(work: (ctx: DatabaseContext) => Promise<T>): Promise<T> {
    return this.within(openDatabaseSession(this.io.env, this.logger), work);
  }

  /** Runs `work` with the whole engine context, gateway and queues included. */
  withEngine<T>(work: (ctx: EngineContext) => Promise<T>): Promise<T> {
    return this.within(openEngineSession(this.io.env, this.logger), work);
  }

  private async within<C, T>(opening: Promise<Session<C>>, work: (ctx: C) => Promise<T>): Promise<T> {
    const session = await opening;
    try {
      return await work(session.ctx);
    } finally {
      await session.close();
    }
  }
}
