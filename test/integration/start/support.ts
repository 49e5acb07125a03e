import { chmod, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EngineContext } from "../../../src/context/index.js";
import { createCustomer } from "../../../src/customers/index.js";
import { enroll } from "../../../src/enrollment/index.js";
import type { RunningSimulator } from "../../../src/simulator/index.js";

/** Simulated cards (src/simulator/README.md). */
export const CARDS = { approves: "4111111111111111", alwaysDeclines: "4000000000000341" } as const;

/** An empty data directory for a zero-config engine. */
export async function freshDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  // As root, the embedded PostgreSQL runs as the `postgres` user, which must reach the cluster inside.
  await chmod(dir, 0o755);
  return dir;
}

/** Submits the hosted checkout with `card` and follows the redirect back, as a browser does. */
async function payCheckout(simulator: RunningSimulator, checkoutUrl: string, card: string): Promise<void> {
  const reply = await fetch(`${simulator.url}/_sim/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      checkout_url: checkoutUrl,
      card_number: card,
      expiry: "12/30",
      cvv: "123",
      name: "T",
    }),
  });
  const paid = (await reply.json()) as { status?: string; redirect_url?: string | null };
  if (paid.status !== "SUCCESS" || !paid.redirect_url)
    throw new Error(`checkout not paid: ${JSON.stringify(paid)}`);
  const back = await fetch(paid.redirect_url);
  if (!back.ok) throw new Error(`our server answered ${back.status} to the return from the checkout`);
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
  await payCheckout(simulator, started.checkoutUrl, card);
  return { customerId: customer.id, subscriptionId: started.subscriptionId };
}
