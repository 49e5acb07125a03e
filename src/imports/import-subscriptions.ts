import type { DateTime } from "luxon";
import { type CollectionMethod, tokenExpiry } from "../billing/index.js";
import { toInstant } from "../clock/index.js";
import type { EngineContext } from "../context/index.js";
import type { SqlTx } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import type { ImportRow, ReadRow } from "./import-row.js";

/**
 * Rule: imported subscriptions are written in bulk and exactly once. Rows are written in chunks,
 * one transaction each, with multi-row statements (customers, subscriptions, payment methods,
 * events): a chunk commits whole or not at all. The token is sealed by the vault on the way in, and
 * its fingerprint (HMAC) is the row's identity: a row whose token is already saved is reported
 * `existing` and writes nothing, so running the same file again creates nothing twice. A customer
 * with the row's e-mail is reused. A row that does not validate, or names no single plan, is
 * `rejected` with its line and reason, and none of it is written; the other rows go on.
 *
 * The subscription is active, its billing anchor and next_billing_at the row's next_billing_at, so
 * the scheduler bills its first period here at that moment, exactly as for an enrolled one. It pays
 * as the row's collection_method says, else as its plan's does: by the imported card, or by payment
 * link (the card then stays on file for a switch back).
 */
export type ImportStatus = "imported" | "existing" | "rejected";

export interface ImportedRow {
  readonly line: number;
  readonly email: string | null;
  readonly status: ImportStatus;
  readonly subscriptionId: string | null;
  readonly error: string | null;
}

export interface ImportReport {
  readonly imported: number;
  readonly existing: number;
  readonly rejected: number;
  readonly rows: readonly ImportedRow[];
}

export interface ImportOptions {
  /** Validate and look up only; write nothing. */
  readonly dryRun?: boolean;
  /** Rows per transaction; default 1000. */
  readonly chunkSize?: number;
  readonly actor?: string;
}

const ANALYZE_AFTER_ROWS = 10_000;

interface Plan {
  id: string;
  name: string;
  amount_minor: string;
  currency: string;
  collection_method: CollectionMethod;
}

interface Ready {
  readonly line: number;
  readonly row: ImportRow;
  readonly plan: Plan;
  readonly fingerprint: string;
}

type ImportCtx = Pick<EngineContext, "db" | "clock" | "vault" | "config">;

export async function importSubscriptions(
  ctx: ImportCtx,
  rows: readonly ReadRow[],
  options: ImportOptions = {},
): Promise<ImportReport> {
  const chunkSize = options.chunkSize ?? 1000;
  const outcomes = new Map<number, ImportedRow>();
  const reject = (line: number, email: string | null, error: string) =>
    outcomes.set(line, { line, email, status: "rejected", subscriptionId: null, error });

  const plans = await resolvePlans(ctx, rows);
  const ready: Ready[] = [];
  for (const { line, row, error } of rows) {
    if (!row) {
      reject(line, null, error ?? "invalid row");
      continue;
    }
    const plan = plans.get(row.plan);
    if (typeof plan === "string") reject(line, row.email, `plan: ${plan}`);
    else ready.push({ line, row, plan: plan!, fingerprint: ctx.vault.fingerprint(row.card_token) });
  }

  for (let i = 0; i < ready.length; i += chunkSize) {
    const chunk = ready.slice(i, i + chunkSize);
    const written = await ctx.db.$client.begin(async (tx) => {
      const saved = await tx<{ token_fingerprint: string }[]>`
        select token_fingerprint from payment_methods
        where token_fingerprint = any(${chunk.map((r) => r.fingerprint)}::text[])`;
      const known = new Set(saved.map((s) => s.token_fingerprint));
      const fresh = chunk.filter((r) => !known.has(r.fingerprint));
      for (const r of chunk) {
        if (known.has(r.fingerprint)) {
          outcomes.set(r.line, {
            line: r.line,
            email: r.row.email,
            status: "existing",
            subscriptionId: null,
            error: null,
          });
        }
      }
      if (options.dryRun || fresh.length === 0) return new Map<number, string>();
      return writeChunk(tx, ctx, fresh, options.actor ?? "import");
    });
    for (const r of chunk) {
      const subscriptionId = written.get(r.line);
      if (subscriptionId || (options.dryRun && !outcomes.has(r.line))) {
        outcomes.set(r.line, {
          line: r.line,
          email: r.row.email,
          status: "imported",
          subscriptionId: subscriptionId ?? null,
          error: null,
        });
      }
    }
  }

  const sorted = [...outcomes.values()].sort((a, b) => a.line - b.line);
  const written = sorted.filter((row) => row.subscriptionId !== null).length;
  // A large import leaves the planner's statistics stale until autovacuum comes by; the scheduler's
  // scans would plan for empty tables meanwhile.
  if (written >= ANALYZE_AFTER_ROWS) await ctx.db.$client`analyze customers, subscriptions, payment_methods`;
  const count = (status: ImportStatus) => sorted.filter((row) => row.status === status).length;
  return {
    imported: count("imported"),
    existing: count("existing"),
    rejected: count("rejected"),
    rows: sorted,
  };
}

/** Plan references (id or exact name) to plans; a string says why a reference names no single plan. */
async function resolvePlans(ctx: ImportCtx, rows: readonly ReadRow[]): Promise<Map<string, Plan | string>> {
  const refs = [...new Set(rows.flatMap(({ row }) => (row ? [row.plan] : [])))];
  if (refs.length === 0) return new Map();
  const found = await ctx.db.$client<Plan[]>`
    select id, name, amount_minor, currency, collection_method from plans
    where id::text = any(${refs}::text[]) or name = any(${refs}::text[])`;
  return new Map(
    refs.map((ref): [string, Plan | string] => {
      const byId = found.find((plan) => plan.id === ref);
      if (byId) return [ref, byId];
      const byName = found.filter((plan) => plan.name === ref);
      if (byName.length === 1) return [ref, byName[0]!];
      return [
        ref,
        byName.length === 0
          ? `no plan with id or name ${JSON.stringify(ref)}`
          : `several plans are named ${JSON.stringify(ref)}; give its id`,
      ];
    }),
  );
}

/** Writes one chunk of new rows; returns their subscription ids by line. */
async function writeChunk(
  tx: SqlTx,
  ctx: ImportCtx,
  rows: readonly Ready[],
  actor: string,
): Promise<Map<number, string>> {
  const now = ctx.clock.now();
  const iso = (instant: DateTime) => instant.toUTC().toISO();
  const emails = [...new Set(rows.map((r) => r.row.email))];
  const names = emails.map((email) => rows.find((r) => r.row.email === email)!.row.name ?? null);
  await tx`
    insert into customers (email, name)
    select * from unnest(${emails}::text[], ${names}::text[])
    on conflict (email) do nothing`;
  const customers = await tx<{ id: string; email: string }[]>`
    select id, email from customers where email = any(${emails}::text[])`;
  const customerOf = new Map(customers.map((c) => [c.email, c.id]));
  // Each subscription and its payment method name each other, so their ids are made first, by the
  // same uuid_v7() as the columns' default (migration 0024).
  const ids = await tx<{ id: string }[]>`
    select uuid_v7()::text as id from generate_series(1, ${rows.length * 2}::int)`;

  const written = rows.map((r, i) => {
    const nextBillingAt = r.row.next_billing_at ? toInstant(r.row.next_billing_at) : now;
    const issuedAt = r.row.token_issued_at ? toInstant(r.row.token_issued_at) : now;
    const sealed = ctx.vault.encrypt(r.row.card_token);
    return {
      ...r,
      subscriptionId: ids[2 * i]!.id,
      paymentMethodId: ids[2 * i + 1]!.id,
      customerId: customerOf.get(r.row.email)!,
      nextBillingAt,
      issuedAt,
      expiresAt: tokenExpiry(issuedAt, r.row.card_expiry ?? null),
      collectionMethod: r.row.collection_method ?? r.plan.collection_method,
      sealed,
    };
  });
  await tx`
    insert into subscriptions (id, customer_id, plan_id, status, timezone, billing_anchor, next_billing_at,
      collection_method)
    select v.id, v.customer_id, v.plan_id, 'active', ${ctx.config.BILLING_TIMEZONE}, v.anchor, v.anchor,
      v.collection_method::collection_method
    from unnest(
      ${written.map((w) => w.subscriptionId)}::uuid[], ${written.map((w) => w.customerId)}::uuid[],
      ${written.map((w) => w.plan.id)}::uuid[], ${written.map((w) => iso(w.nextBillingAt))}::text[]::timestamptz[],
      ${written.map((w) => w.collectionMethod)}::text[]
    ) as v(id, customer_id, plan_id, anchor, collection_method)`;
  await tx`
    insert into payment_methods (id, customer_id, subscription_id, kind, token_ciphertext, token_nonce,
      token_tag, token_key_id, token_fingerprint, card_last4, card_expiry_month, amount_minor, currency,
      issued_at, expires_at)
    select v.id, v.customer_id, v.subscription_id, v.kind::billing_mode, decode(v.ciphertext, 'hex'),
      decode(v.nonce, 'hex'), decode(v.tag, 'hex'), v.key_id, v.fingerprint, v.last4, v.expiry,
      v.amount_minor, v.currency, v.issued_at, v.expires_at
    from unnest(
      ${written.map((w) => w.paymentMethodId)}::uuid[], ${written.map((w) => w.customerId)}::uuid[],
      ${written.map((w) => w.subscriptionId)}::uuid[], ${written.map((w) => w.row.token_kind ?? "recurring")}::text[],
      ${written.map((w) => w.sealed.ciphertext.toString("hex"))}::text[],
      ${written.map((w) => w.sealed.nonce.toString("hex"))}::text[],
      ${written.map((w) => w.sealed.tag.toString("hex"))}::text[], ${written.map((w) => w.sealed.keyId)}::text[],
      ${written.map((w) => w.fingerprint)}::text[], ${written.map((w) => w.row.card_last4 ?? null)}::text[],
      ${written.map((w) => w.row.card_expiry ?? null)}::text[], ${written.map((w) => w.plan.amount_minor)}::bigint[],
      ${written.map((w) => w.plan.currency)}::text[], ${written.map((w) => iso(w.issuedAt))}::text[]::timestamptz[],
      ${written.map((w) => iso(w.expiresAt))}::text[]::timestamptz[]
    ) as v(id, customer_id, subscription_id, kind, ciphertext, nonce, tag, key_id, fingerprint, last4, expiry,
           amount_minor, currency, issued_at, expires_at)`;
  await tx`
    update subscriptions s set payment_method_id = v.payment_method_id
    from unnest(${written.map((w) => w.subscriptionId)}::uuid[], ${written.map((w) => w.paymentMethodId)}::uuid[])
      as v(id, payment_method_id)
    where s.id = v.id`;
  await recordEvents(
    tx,
    written.map((w) => ({
      type: "subscription.imported",
      actor,
      occurredAt: now,
      subscriptionId: w.subscriptionId,
      customerId: w.customerId,
      data: {
        plan_id: w.plan.id,
        next_billing_at: iso(w.nextBillingAt),
        payment_method_id: w.paymentMethodId,
        collection_method: w.collectionMethod,
      },
    })),
  );
  return new Map(written.map((w) => [w.line, w.subscriptionId]));
}
