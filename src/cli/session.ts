import { type Clock, systemClock } from "../clock/index.js";
import { createDatabaseClock, type EngineContext } from "../context/index.js";
import { createDb, DatabaseUnreachableError, isMigrated, migrateDatabase, pgError } from "../db/index.js";
import type { Logger } from "../logger/index.js";
import { type EngineSetup, resolveSetup } from "../runtime/setup.js";
import { CliError, EXIT } from "./errors.js";

/**
 * How a command reaches the engine. The CLI resolves its database like every engine process
 * (src/runtime/setup.ts): DATABASE_URL, else the running zero-config engine's database named in
 * `<data dir>/runtime.json`, else the embedded database it starts for the command and stops after.
 * Commands that only read and write rows take the database session; commands that call the gateway
 * take the engine session, which needs a gateway (configured, or the running engine's simulator).
 * The engine's composition root (queues, gateway client, vault) is imported only by the engine
 * session: a database command never loads it.
 */

export type DatabaseContext = Pick<EngineContext, "config" | "db" | "clock" | "logger">;

export interface Session<C> {
  ctx: C;
  setup: EngineSetup;
  close(): Promise<void>;
}

/** The billing clock BILLING_CLOCK describes, as createEngine builds it. */
async function clockOf(ctx: Pick<EngineContext, "config" | "db">): Promise<Clock> {
  const { config } = ctx;
  if (config.BILLING_CLOCK === "system") return systemClock;
  return createDatabaseClock(ctx.db, config.BILLING_CLOCK_START ? { start: config.BILLING_CLOCK_START } : {});
}

export async function openDatabaseSession(
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<Session<DatabaseContext>> {
  const setup = await resolveSetup(env, logger);
  const { config, databaseUrl } = setup;
  try {
    const database = createDb(databaseUrl, { max: 4, logger });
    try {
      // Most commands find the schema current: that is asked on this session's connection, and
      // migrating (a connection of its own, a lock) happens only when it is not.
      const current = await isMigrated(database.sql).catch((error: unknown) => {
        // No answer at all: said as migrating says it, without a second wait for the same server.
        if (!pgError(error)) throw new DatabaseUnreachableError(databaseUrl, error);
        return false; // an answer, such as "no such database": migrating creates it or says why not
      });
      if (!current) await migrateDatabase(databaseUrl, { logger });
      const clock = await clockOf({ config, db: database.db });
      return {
        ctx: { config, db: database.db, clock, logger },
        setup,
        close: async () => {
          await database.close();
          await setup.release();
        },
      };
    } catch (error) {
      await database.close();
      throw error;
    }
  } catch (error) {
    await setup.release();
    throw error;
  }
}

export async function openEngineSession(
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<Session<EngineContext>> {
  const setup = await resolveSetup(env, logger);
  const { config } = setup;
  if (!config.GATEWAY_BASE_URL || !config.GATEWAY_LEGACY_URL || !config.GATEWAY_API_KEY) {
    await setup.release();
    throw new CliError(
      "this command calls the payment gateway, and none is configured: start the engine with `npm start` " +
        "(its simulator is then used), or set GATEWAY_BASE_URL, GATEWAY_LEGACY_URL and GATEWAY_API_KEY",
      EXIT.usage,
    );
  }
  try {
    const { createEngine } = await import("../app/bootstrap.js");
    // The engine's processes keep merchant_settings; a command must not reset them from its shell.
    const engine = await createEngine(config, { logger, writeMerchantSettings: false });
    return {
      ctx: engine.ctx,
      setup,
      close: async () => {
        await engine.close();
        await setup.release();
      },
    };
  } catch (error) {
    await setup.release();
    throw error;
  }
}
