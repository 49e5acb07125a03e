/**
 * The simulator's ledger of processed payments (GET /_sim/ledger?only=payments), as the benchmark
 * and the chaos suite read it to check the engine's database against what the gateway moved. The
 * reply is validated: a changed ledger shape fails here, naming the field, rather than miscounting.
 */
import { z } from "zod";

const ledgerPayment = z.object({
  transaction_id: z.string(),
  operation: z.string(),
  status: z.string(),
  order_id: z.string().nullable(),
  card_token: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  refunded: z.boolean(),
});

export type LedgerPayment = z.infer<typeof ledgerPayment>;

const ledgerReply = z.object({ payments: z.array(ledgerPayment) });

/** Every processed payment, oldest first. */
export async function readLedgerPayments(simUrl: string): Promise<LedgerPayment[]> {
  const reply = await fetch(`${simUrl}/_sim/ledger?only=payments`);
  if (!reply.ok) throw new Error(`GET /_sim/ledger answered ${reply.status}`);
  const parsed = ledgerReply.safeParse(await reply.json());
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`unexpected /_sim/ledger reply at ${issue?.path.join(".")}: ${issue?.message}`);
  }
  return parsed.data.payments;
}

/** Successful GetnewPayment collections: what recurring billing took from cards. */
export function collections(payments: readonly LedgerPayment[]): LedgerPayment[] {
  return payments.filter((p) => p.operation === "GetnewPayment" && p.status === "SUCCESS");
}
