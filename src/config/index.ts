export { type Config, ConfigError, decodeKey, envSchema, loadConfig } from "./env.js";
export { explainListenError } from "./listen-error.js";
export { publicUrlOf } from "./public-url.js";
