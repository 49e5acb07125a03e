export { type Config, ConfigError, decodeKey, envSchema, loadConfig } from "./env.js";
export { explainListenError } from "./listen-error.js";
