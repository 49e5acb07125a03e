/**
 * Seeds N due subscriptions in seconds: the simulator mints the card tokens (POST /_sim/tokens, as
 * many as a paid enrollment would have left) and `billing import`'s service writes customers,
 * subscriptions and sealed payment methods in bulk: the first `due` due now, the rest next month.
 */
import type { EngineContext } from "../../src/context/index.js";
import { importSubscriptions, type ReadRow } from "../../src/imports/index.js";
import { createPlan } from "../../src/plans/index.js";

const MINT_CHUNK = 10_000;

export async function seedSubscriptions(
  ctx: EngineContext,
  simUrl: string,
  n: number,
  due: number,
): Promise<void> {
  const plan = await createPlan(ctx, { name: "Bench", amount: "49.00", currency: "QAR", interval: "month" });
  const now = ctx.clock.now().toUTC();
  const issued = now.toISO()!;
  const nextMonth = now.plus({ months: 1 }).toISO()!;
  for (let start = 0; start < n; start += MINT_CHUNK) {
    const count = Math.min(MINT_CHUNK, n - start);
    const reply = await fetch(`${simUrl}/_sim/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count, amount: "49.00", currency: "QAR" }),
    });
    if (reply.status !== 201) throw new Error(`minting tokens failed: ${reply.status} ${await reply.text()}`);
    const { tokens } = (await reply.json()) as { tokens: { card_token: string }[] };
    const rows: ReadRow[] = tokens.map((token, i) => ({
      line: start + i + 2,
      error: null,
      row: {
        email: `bench-${start + i}@example.com`,
        name: undefined,
        plan: plan.id,
        card_token: token.card_token,
        token_kind: "recurring",
        card_expiry: "12/30",
        card_last4: "1111",
        token_issued_at: issued,
        next_billing_at: start + i < due ? issued : nextMonth,
      },
    }));
    const report = await importSubscriptions(ctx, rows, { actor: "bench" });
    if (report.imported !== count)
      throw new Error(
        `imported ${report.imported} of ${count}: ${JSON.stringify(report.rows.find((r) => r.error))}`,
      );
  }
}
