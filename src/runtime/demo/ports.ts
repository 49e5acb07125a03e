import { findFreePort } from "../../infra/index.js";

/**
 * Rule: an engine started for the demo (and the screenshot and HTTP bench on it) takes the caller's
 * port settings, and only those of its environment: PORT and HOST (the HTTP server),
 * GATEWAY_SIM_PORT (the in-process simulator) and EMBEDDED_POSTGRES_PORT. Each one unset is a free
 * port, on loopback, so a demo never takes a port a user's own engine or simulator expects (3000,
 * 4010, 54329) and runs beside them.
 */

const PORT_VARIABLES = ["PORT", "HOST", "GATEWAY_SIM_PORT", "EMBEDDED_POSTGRES_PORT"] as const;

type PortVariable = (typeof PORT_VARIABLES)[number];

/** The port settings for a demo engine; the engine's config validates them, naming a bad one. */
export async function demoPorts(env: NodeJS.ProcessEnv): Promise<Record<PortVariable, string>> {
  // An empty value is unset, as the engine's config reads it.
  const set = Object.fromEntries(PORT_VARIABLES.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  return {
    PORT: "0",
    HOST: "127.0.0.1",
    GATEWAY_SIM_PORT: "0",
    // Not 0: the embedded PostgreSQL needs its port before it starts. The default 54329 is the one
    // every other embedded PostgreSQL tries first.
    EMBEDDED_POSTGRES_PORT: env.EMBEDDED_POSTGRES_PORT || String(await findFreePort()),
    ...set,
  };
}
