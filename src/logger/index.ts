export { createLogger, type Logger, type LoggerSettings, logDestination, silentLogger } from "./logger.js";
export { isSecretKey, REDACTED, redact, redactText } from "./redact.js";
