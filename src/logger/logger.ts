import { type DestinationStream, type LevelWithSilent, type Logger, type LoggerOptions, pino } from "pino";
import { redact, redactText } from "./redact.js";

export type { Logger } from "pino";

export interface LoggerSettings {
  /** A pino level; anything else (unset, or a LOG_LEVEL such as "loud") gives `fallbackLevel`. */
  level?: string;
  /** Defaults to info. */
  fallbackLevel?: LevelWithSilent;
  name?: string;
}

/**
 * Processes make their logger before their settings are validated, so an invalid LOG_LEVEL must not
 * crash pino there: the logger falls back, and the configuration check reports the variable.
 */
function knownLevel(level: string | undefined): level is LevelWithSilent {
  return level !== undefined && (level === "silent" || Object.hasOwn(pino.levels.values, level));
}

/**
 * Builds the pino logger every part of the engine uses. Redaction runs on every object and message
 * before serialisation, so a secret cannot leak through a header, a body or a URL that is logged.
 */
export function createLogger(settings: LoggerSettings = {}, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level: knownLevel(settings.level) ? settings.level : (settings.fallbackLevel ?? "info"),
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

/**
 * Where `logger` writes its lines, so that lines a worker thread makes with a logger of its own
 * (same level and redaction) reach the same place, a test's capture included.
 */
export function logDestination(logger: Logger): DestinationStream {
  return (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym]!;
}

/** A logger that writes nothing, for tests and tools that only need the interface. */
export const silentLogger: Logger = pino({ level: "silent" });
