import type { Config } from "../config/index.js";
import type { Logger } from "../logger/index.js";
import type { EmbeddedPostgresOptions } from "./embedded-postgres.js";

export function embeddedPostgresOptionsFromConfig(config: Config, logger?: Logger): EmbeddedPostgresOptions {
  return { dataDir: config.EMBEDDED_POSTGRES_DIR, port: config.EMBEDDED_POSTGRES_PORT, logger };
}
