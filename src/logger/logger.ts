import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";
import { redact, redactText } from "./redact.js";

export type { Logger } from "pino";

export interface LoggerSettings {
  level?: string;
  name?: string;
}

/**
 * Builds the pino logger every part of the engine uses. Redaction runs on every object and message
 * before serialisation, so a secret cannot leak through a header, a body or a URL that is logged.
 */
export function createLogger(settings: LoggerSettings = {}, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? "info",
    name: settings.name ?? "billing-engine",
    formatters: {
      log: (object) => redact(object),
    },
    hooks: {
      logMethod(args, method) {
        const cleaned = args.map((arg) => (typeof arg === "string" ? redactText(arg) : arg)) as typeof args;
        method.apply(this, cleaned);
      },
    },
    serializers: {
      err: (err: Error) => ({
        type: err.name,
        message: redactText(err.message),
        stack: err.stack ? redactText(err.stack) : undefined,
        ...redact({ ...(err as unknown as Record<string, unknown>) }),
      }),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that writes nothing, for tests and tools that only need the interface. */
export const silentLogger: Logger = pino({ level: "silent" });
