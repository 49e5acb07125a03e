/**
 * The engine context a runner process bills and checks with (the bench, the chaos suite, the
 * cluster run): the system clock, the simulator as its gateway, the vault its worker processes
 * use, no logs of its own, and a public URL nothing calls back on.
 */
import { DEFAULT_DUNNING_POLICY } from "../../src/billing/index.js";
import { systemClock } from "../../src/clock/index.js";
import type { Config } from "../../src/config/index.js";
import type { EngineContext } from "../../src/context/index.js";
import { vaultFromConfig } from "../../src/crypto/index.js";
import type { Db } from "../../src/db/index.js";
import { createGatewayClient } from "../../src/gateway/index.js";
import { silentLogger } from "../../src/logger/index.js";
import type { QueueSystem } from "../../src/queue/index.js";

export function runnerContext(parts: {
  readonly config: Config;
  readonly db: Db;
  readonly queues: QueueSystem;
  readonly sim: { readonly url: string; readonly apiKey: string };
  readonly publicUrl?: string;
}): EngineContext {
  const { config, db, queues, sim } = parts;
  return {
    config,
    db,
    clock: systemClock,
    gateway: createGatewayClient({ baseUrl: sim.url, legacyUrl: sim.url, apiKey: sim.apiKey }),
    queues,
    vault: vaultFromConfig(config),
    logger: silentLogger,
    dunning: DEFAULT_DUNNING_POLICY,
    publicUrl: parts.publicUrl ?? "http://127.0.0.1:9",
  };
}
