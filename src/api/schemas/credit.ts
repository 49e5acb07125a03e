import { z } from "zod";
import type { CreditGranted } from "../../pricing/index.js";
import { moneySchema, presentMoney } from "./common.js";

/** Credit a person gives a customer (POST /v1/subscriptions/:id/credit), and the balance after. */
export const creditGrantedSchema = z
  .object({
    subscription_id: z.uuid(),
    granted: moneySchema.describe("The credit just given, in the plan's currency"),
    credit_balance: moneySchema.describe(
      "The subscription's credit now: taken off its next charges first (the subscription's credit_minor)",
    ),
    event_id: z.number().int().describe("The `subscription.credit_granted` event: the audit of this grant"),
  })
  .meta({ id: "CreditGranted" });

export function presentCreditGranted(granted: CreditGranted): z.infer<typeof creditGrantedSchema> {
  return {
    subscription_id: granted.subscriptionId,
    granted: presentMoney(granted.amountMinor, granted.currency),
    credit_balance: presentMoney(granted.balanceMinor, granted.currency),
    event_id: granted.eventId,
  };
}
