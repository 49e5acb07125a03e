import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { EngineContext } from "../../context/index.js";
import { printDocument } from "../../customer-documents/index.js";
import { customerMessages, receipts } from "../../db/schema/index.js";
import type { Enrolled } from "./scenario.js";

/**
 * What the demo's customers received: the messages the engine wrote for them, by kind and status
 * (kept, with no SMTP server configured: the /ops mailbox shows them), and each member's first
 * receipt as a PDF in the customer's language, written to `dir`.
 */
export interface DemoMailbox {
  /** "12 receipt, 3 payment_failed, …" */
  byKind: string;
  /** How far they got: "28 kept", or "28 sent" with SMTP_URL set. */
  byStatus: string;
  /** One line per receipt PDF written. */
  receipts: string[];
}

export async function readMailbox(
  ctx: EngineContext,
  cast: readonly Enrolled[],
  dir: string,
): Promise<DemoMailbox> {
  const ids = cast.map((member) => member.customerId);
  const counts = await ctx.db
    .select({ kind: customerMessages.kind, status: customerMessages.status, n: sql<number>`count(*)::int` })
    .from(customerMessages)
    .where(inArray(customerMessages.customerId, ids))
    .groupBy(customerMessages.kind, customerMessages.status);
  const tally = (key: "kind" | "status") => {
    const totals = new Map<string, number>();
    for (const row of counts) totals.set(row[key], (totals.get(row[key]) ?? 0) + row.n);
    return [...totals].map(([name, n]) => `${n} ${name}`).join(", ") || "none";
  };
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const member of cast) {
    const [first] = await ctx.db
      .select({ id: receipts.id })
      .from(receipts)
      .where(eq(receipts.customerId, member.customerId))
      .orderBy(asc(receipts.number))
      .limit(1);
    const printed = first && (await printDocument(ctx, "receipt", first.id, "pdf"));
    if (!printed) continue;
    const file = path.join(dir, `${printed.number}-${member.name}.pdf`);
    await writeFile(file, printed.body);
    written.push(`${member.name} (${member.language ?? "en"}): ${file}`);
  }
  return { byKind: tally("kind"), byStatus: tally("status"), receipts: written };
}
