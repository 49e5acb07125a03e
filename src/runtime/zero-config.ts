import path from "node:path";

/**
 * The zero-configuration defaults shared by `npm start` and the `billing` CLI, applied to the
 * environment before loadConfig so both read the same settings:
 * - BILLING_DATA_DIR (default `.data`) holds everything a development machine keeps: the embedded
 *   PostgreSQL cluster (EMBEDDED_POSTGRES_DIR), the generated token key (TOKEN_DEV_KEY_FILE) and
 *   runtime.json, which tells the CLI where a running engine is;
 * - without gateway URLs the gateway is the in-process simulator, whose time only means something
 *   when it can be moved, so BILLING_CLOCK defaults to controllable there.
 * A variable that is set always wins.
 */
export const DEFAULT_DATA_DIR = ".data";

export function dataDirOf(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.BILLING_DATA_DIR || DEFAULT_DATA_DIR);
}

/** True when the environment names no gateway, so the engine runs the simulator in-process. */
export function usesInProcessGateway(env: {
  GATEWAY_BASE_URL?: string;
  GATEWAY_LEGACY_URL?: string;
}): boolean {
  return !env.GATEWAY_BASE_URL && !env.GATEWAY_LEGACY_URL;
}

/** The variables that are set; an empty variable counts as unset, as in loadConfig. */
export function setVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
}

export function withZeroConfigDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const set = setVariables(env);
  const dataDir = dataDirOf(set);
  return {
    EMBEDDED_POSTGRES_DIR: path.join(dataDir, "postgres"),
    TOKEN_DEV_KEY_FILE: path.join(dataDir, "token-key"),
    ...(usesInProcessGateway(set) ? { BILLING_CLOCK: "controllable" } : {}),
    ...set,
  };
}
