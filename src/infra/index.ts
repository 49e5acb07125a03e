export {
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  startEmbeddedPostgres,
} from "./embedded-postgres.js";
export { findFreePort } from "./free-port.js";
export { embeddedPostgresOptionsFromConfig } from "./from-config.js";
