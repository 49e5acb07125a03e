export { type Config, ConfigError, decodeKey, envSchema, loadConfig } from "./env.js";
