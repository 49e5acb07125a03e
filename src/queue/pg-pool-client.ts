import pg from "pg";

/**
 * The node-postgres client class of BullMQ's connections (postgres-binding.ts). Rule: a connection
 * error on a client nobody listens to is no crash. node-postgres emits a lost connection as an
 * 'error' event, which throws when nothing listens, and BullMQ holds clients without a listener:
 * - pg-pool takes its own listener off a client it hands out, and BullMQ's start-up check (each
 *   queue and worker runs one) holds one without adding its own;
 * - BullMQ attaches its listener to its LISTEN connection once that connection is ready, so a
 *   server whose farewell comes in the same packet as its "ready" is heard by no one.
 * A database that died then ended the process with a stack trace instead of the engine's own
 * account of it. The error is not lost: the holder's next query fails with it, and the listeners
 * BullMQ and pg-pool add still hear it.
 */
export class ListenedPoolClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", () => undefined);
  }
}

/**
 * BullMQ builds its LISTEN connection with the pg module's own Client, with no option to give it
 * another, so the module's Client becomes ListenedPoolClient. It is one module per process; its
 * only other user here, the embedded database's one-off setup, awaits each query and is no
 * different for it. Idempotent.
 */
export function listenOnEveryPgClient(): void {
  const module = pg as { Client: typeof pg.Client };
  if (module.Client !== ListenedPoolClient) module.Client = ListenedPoolClient;
}
