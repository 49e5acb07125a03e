import type { DunningPolicy } from "../billing/index.js";
import type { Clock } from "../clock/index.js";
import type { Config } from "../config/index.js";
import type { TokenVault } from "../crypto/index.js";
import type { Db } from "../db/index.js";
import type { GatewayClient } from "../gateway/index.js";
import type { Logger } from "../logger/index.js";
import type { QueueSystem } from "../queue/index.js";

/**
 * Everything a service of the engine may use, built once by the composition root. Services take
 * the narrowest `Pick<EngineContext, …>` they need, so a unit is easy to set up in a test.
 */
export interface EngineContext {
  config: Config;
  db: Db;
  clock: Clock;
  gateway: GatewayClient;
  queues: QueueSystem;
  vault: TokenVault;
  logger: Logger;
  dunning: DunningPolicy;
  /** Base URL at which the gateway and customers reach our HTTP server (no trailing slash). */
  publicUrl: string;
}
