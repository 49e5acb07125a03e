import {
  type DunningPolicy,
  DunningPolicyError,
  isMessageKind,
  MESSAGE_KINDS,
  type MessageKind,
  parseDunningPolicy,
} from "../billing/index.js";
import { type Config, ConfigError, envSchema, loadConfig } from "../config/index.js";
import type { MerchantSettings } from "../customers/index.js";

/**
 * The engine's settings checked in one pass, before anything starts or connects: the schema of
 * every variable (src/config), the rules the domain puts on some of them (a dunning schedule within
 * the card networks' retry limits, which src/config cannot know), and the variables the caller needs
 * although the schema leaves them optional. Every problem is reported in one ConfigError, so fixing
 * one never reveals another.
 */

export type Problem = ConstructorParameters<typeof ConfigError>[0][number];
type Variable = keyof Config;

const GATEWAY: readonly Variable[] = ["GATEWAY_API_KEY", "GATEWAY_BASE_URL", "GATEWAY_LEGACY_URL"];

/** DUNNING_RETRY_DAYS and DUNNING_TERMINAL_ACTION as a policy the card networks' limits allow. */
export function dunningFromConfig(
  config: Pick<Config, "DUNNING_RETRY_DAYS" | "DUNNING_TERMINAL_ACTION">,
  problems: Problem[],
): DunningPolicy | undefined {
  try {
    return parseDunningPolicy({
      retryOffsetsDays: config.DUNNING_RETRY_DAYS,
      terminalAction: config.DUNNING_TERMINAL_ACTION,
    });
  } catch (error) {
    if (!(error instanceof DunningPolicyError)) throw error;
    for (const issue of error.issues) {
      const variable = issue.field.startsWith("terminalAction")
        ? "DUNNING_TERMINAL_ACTION"
        : "DUNNING_RETRY_DAYS";
      problems.push({ variable, message: issue.message });
    }
    return undefined;
  }
}

/** MESSAGES_DISABLED as message kinds; "all" is every kind (webhook-only mode). */
export function disabledMessageKinds(names: readonly string[], problems: Problem[] = []): MessageKind[] {
  if (names.length === 1 && names[0] === "all") return [...MESSAGE_KINDS];
  for (const name of names.filter((n) => !isMessageKind(n))) {
    problems.push({
      variable: "MESSAGES_DISABLED",
      message: `${JSON.stringify(name)} is not a message kind (${MESSAGE_KINDS.join(", ")}) nor "all"`,
    });
  }
  return names.filter(isMessageKind);
}

/** What an engine process writes to merchant_settings when it boots (customers/merchant-settings.ts). */
export function merchantSettingsOf(config: Config, problems: Problem[] = []): MerchantSettings {
  return {
    taxRateBp: config.TAX_RATE_PERCENT,
    taxLabel: config.TAX_LABEL,
    messagesDisabled: disabledMessageKinds(config.MESSAGES_DISABLED, problems),
    recordPaidInvoices: config.GATEWAY_RECORD_PAID_INVOICES,
  };
}

/**
 * The variables createEngine needs set, less what the caller supplies itself: a database (the
 * embedded one) or a gateway (the in-process simulator). Production also needs the token key.
 */
export function engineNeeds(
  env: NodeJS.ProcessEnv,
  supplied: { database?: boolean; gateway?: boolean } = {},
): Variable[] {
  return [
    ...(supplied.database ? [] : (["DATABASE_URL"] as const)),
    ...(supplied.gateway ? [] : GATEWAY),
    ...(env.NODE_ENV === "production" ? (["TOKEN_ENCRYPTION_KEY"] as const) : []),
  ];
}

/** loadConfig, the domain's rules on settings and `needs`; throws one ConfigError naming every problem. */
export function loadEngineConfig(env: NodeJS.ProcessEnv, needs: readonly Variable[] = []): Config {
  const set = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const problems: Problem[] = [];
  let config: Config | undefined;
  try {
    config = loadConfig(set);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  // Checked even when other variables are bad, as long as its own variables parse.
  const dunning =
    config ?? envSchema.pick({ DUNNING_RETRY_DAYS: true, DUNNING_TERMINAL_ACTION: true }).safeParse(set).data;
  if (dunning) dunningFromConfig(dunning, problems);
  if (config) disabledMessageKinds(config.MESSAGES_DISABLED, problems);
  for (const variable of needs) {
    if (set[variable] === undefined) problems.push({ variable, message: "required to run the engine" });
  }
  if (problems.length > 0 || config === undefined) throw new ConfigError(problems);
  return config;
}
