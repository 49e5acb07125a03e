import { processChargeBatch } from "../../src/charging/index.js";
import { runBillingTick } from "../../src/scheduler/index.js";
import {
  type CardSubscription,
  chargesOf,
  createSubscription,
  type SubscriptionOptions,
} from "../integration/charging/fixtures.js";
import type { EngineHarness } from "./engine.js";

/**
 * Charges paid the way billing pays them: a subscription on a real simulator card token
 * (charging/fixtures.ts), billed by a tick and collected by processChargeBatch, so the paying
 * transaction writes the receipt and the customer's receipt message (as in test/integration/outbox).
 * The charge jobs the tick enqueued are dropped: the charge is collected here, at once.
 */

/** Bills the subscription's first period and collects it; the charge's id. */
export async function payFirstCharge(h: EngineHarness, subscriptionId: string): Promise<string> {
  await runBillingTick(h.ctx, { batchSize: 50 });
  await h.ctx.queues.obliterate();
  const [charge] = await chargesOf(h, subscriptionId);
  if (!charge) throw new Error(`the tick billed no charge for ${subscriptionId}`);
  const outcome = await processChargeBatch(h.ctx, [charge.id], { flushMs: 5 });
  if (outcome.failures.size > 0)
    throw new Error(`charge ${charge.id} failed: ${[...outcome.failures.values()]}`);
  const [paid] = await chargesOf(h, subscriptionId);
  if (paid?.status !== "paid") throw new Error(`charge ${charge.id} is ${paid?.status}, not paid`);
  return charge.id;
}

/** A new customer's subscription, its first charge paid. */
export async function paidByCard(
  h: EngineHarness,
  options: SubscriptionOptions = {},
): Promise<{ sub: CardSubscription; chargeId: string }> {
  const sub = await createSubscription(h, options);
  return { sub, chargeId: await payFirstCharge(h, sub.subscriptionId) };
}
