import { chmod, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EngineContext } from "../../../src/context/index.js";
import { createCustomer } from "../../../src/customers/index.js";
import { enroll } from "../../../src/enrollment/index.js";
import { findFreePort } from "../../../src/infra/index.js";
import { payCheckout } from "../../../src/runtime/demo/scenario.js";
import type { RunningSimulator } from "../../../src/simulator/index.js";

/** Simulated cards (src/simulator/README.md). */
export const CARDS = { approves: "4111111111111111", alwaysDeclines: "4000000000000341" } as const;

/**
 * The environment of `npm start` on a fresh machine: no configuration (PATH and HOME) but the
 * documented port settings, each a free port: PORT (the HTTP server), GATEWAY_SIM_PORT (the
 * in-process simulator) and EMBEDDED_POSTGRES_PORT. At their defaults (4010 and 54329 tried
 * first) the engine would take the ports of a simulator or engine already running on the machine,
 * or race a suite running in parallel.
 */
export async function freshMachineEnv() {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(await findFreePort()),
    GATEWAY_SIM_PORT: String(await findFreePort()),
    EMBEDDED_POSTGRES_PORT: String(await findFreePort()),
  };
}

/** An empty data directory for a zero-config engine. */
export async function freshDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  // As root, the embedded PostgreSQL runs as the `postgres` user, which must reach the cluster inside.
  await chmod(dir, 0o755);
  return dir;
}

/** A customer enrolled in `planId` through the simulator's hosted checkout with `card`. */
export async function enrollWithCard(
  ctx: EngineContext,
  simulator: RunningSimulator,
  planId: string,
  email: string,
  card: string,
): Promise<{ customerId: string; subscriptionId: string }> {
  const { customer } = await createCustomer(ctx, { email, name: email }, { actor: "test" });
  const started = await enroll(ctx, { customerId: customer.id, planId, actor: "test" });
  await payCheckout(simulator, started.checkoutUrl, card, "T");
  return { customerId: customer.id, subscriptionId: started.subscriptionId };
}
