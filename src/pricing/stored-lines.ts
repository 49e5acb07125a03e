import type { ChargeLine, ChargeLineKind } from "../billing/index.js";
import { pgInteger, type SqlRunner } from "../db/index.js";

/**
 * A charge's lines as stored (charge_lines): written once with the charge, in one statement for a
 * whole batch of charges, and read back for its receipt and the API. A charge without stored lines
 * is its plan alone at quantity 1 (billing/charge-lines.ts linesWorthStoring).
 */
export interface StoredLine {
  readonly kind: ChargeLineKind;
  readonly description: string;
  readonly quantity: number;
  readonly amountMinor: number;
  readonly refId: string | null;
}

export async function insertChargeLines(
  sql: SqlRunner,
  charges: readonly { chargeId: string; lines: readonly ChargeLine[] }[],
): Promise<void> {
  const rows = charges.flatMap(({ chargeId, lines }) =>
    lines.map((line, position) => ({ chargeId, position, line })),
  );
  if (rows.length === 0) return;
  await sql`
    insert into charge_lines (charge_id, position, kind, description, quantity, amount_minor, parts, ref_id)
    select * from unnest(
      ${rows.map((r) => r.chargeId)}::uuid[], ${rows.map((r) => r.position)}::int[],
      ${rows.map((r) => r.line.kind)}::charge_line_kind[], ${rows.map((r) => r.line.description)}::text[],
      ${rows.map((r) => r.line.quantity)}::int[], ${rows.map((r) => String(r.line.amountMinor))}::text[]::bigint[],
      ${rows.map((r) => JSON.stringify(r.line.parts.map(storedPart)))}::text[]::jsonb[],
      ${rows.map((r) => r.line.refId)}::uuid[])`;
}

/** Each charge's stored lines in order; a charge without any is absent from the map. */
export async function chargeLinesOf(
  sql: SqlRunner,
  chargeIds: readonly string[],
): Promise<Map<string, StoredLine[]>> {
  if (chargeIds.length === 0) return new Map();
  const rows = await sql<
    {
      charge_id: string;
      kind: ChargeLineKind;
      description: string;
      quantity: number;
      amount_minor: string;
      ref_id: string | null;
    }[]
  >`
    select charge_id, kind, description, quantity, amount_minor, ref_id from charge_lines
    where charge_id = any(${chargeIds as string[]}::uuid[])
    order by charge_id, position`;
  const byCharge = new Map<string, StoredLine[]>();
  for (const row of rows) {
    const lines = byCharge.get(row.charge_id) ?? [];
    lines.push({
      kind: row.kind,
      description: row.description,
      quantity: row.quantity,
      amountMinor: pgInteger(row.amount_minor),
      refId: row.ref_id,
    });
    byCharge.set(row.charge_id, lines);
  }
  return byCharge;
}

function storedPart(part: ChargeLine["parts"][number]) {
  return {
    quantity: part.quantity,
    from_unit: part.fromUnit ?? null,
    to_unit: part.toUnit ?? null,
    unit_amount_minor: part.unitAmountMinor,
    flat_amount_minor: part.flatAmountMinor,
    amount_minor: part.amountMinor,
  };
}
