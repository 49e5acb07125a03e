export {
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  startEmbeddedPostgres,
} from "./embedded-postgres.js";
export { ensureEmbeddedPostgresSymlinks } from "./embedded-postgres-binaries.js";
export { findFreePort } from "./free-port.js";
export { embeddedPostgresOptionsFromConfig } from "./from-config.js";
