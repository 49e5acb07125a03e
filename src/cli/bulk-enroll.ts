import { and, desc, eq, ne, sql } from "drizzle-orm";
import { COLLECTION_METHODS, type CollectionMethod } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { CustomerInputError, createCustomer } from "../customers/index.js";
import { enrollments, subscriptions } from "../db/schema/index.js";
import {
  assertPlanTakesSubscriptions,
  EnrollmentError,
  findOpenSubscription,
  startReEnrollment,
  subscribe,
} from "../enrollment/index.js";
import { type CsvFile, CsvFileError, readCsvFile } from "../imports/index.js";
import { getPlan } from "../plans/index.js";
import { CLI_ACTOR } from "./cli.js";
import { CliError, EXIT } from "./errors.js";

/**
 * Bulk enrollment from a CSV with the header email, name, phone, plan (a plan id), and optionally
 * collection_method and quantity (seats, 1 when empty); name, phone, collection_method and quantity
 * may be empty. Each row becomes a customer
 * (idempotent on e-mail) and a subscription with its checkout link; one paying by link
 * (collection_method send_payment_link, or by default the plan's) starts at once and has none.
 * Safe to run again on the same file:
 * - a customer already holding a subscription to the plan that is not canceled (pending or live;
 *   the rule subscribe() applies, findOpenSubscription) is reported `existing` with that
 *   subscription's checkout link (the pending one, else the one the card was saved through); a
 *   pending subscription whose checkout could not be opened gets a fresh one;
 * - a bad row is `rejected` with the reason and its line number, and the run goes on.
 * Rows run one after another, so two rows of one customer never race past the `existing` check.
 */

export const CSV_COLUMNS = ["email", "name", "phone", "plan"] as const;
const REQUIRED_COLUMNS = ["email", "plan"] as const;

export interface CsvRow {
  /** Line of the file the row ends on (the header is line 1). */
  line: number;
  email: string;
  name: string;
  phone: string;
  plan: string;
  /** The optional column collection_method, when the row fills it; else the plan's default. */
  collection_method?: string;
  /** The optional column quantity, when the row fills it; else 1. */
  quantity?: string;
  /** Why the row cannot be read (more cells than the header); it is then rejected as it is. */
  error?: string;
}

export type RowStatus = "enrolled" | "existing" | "rejected";

export interface RowResult {
  line: number;
  email: string;
  plan: string;
  status: RowStatus;
  customer_id: string | null;
  subscription_id: string | null;
  /** How the subscription pays; null when the row was rejected. */
  collection_method: CollectionMethod | null;
  /** Null for a subscription paying by link: it needs no card. */
  checkout_url: string | null;
  error: string | null;
}

/** Parses the file; a missing column or unreadable CSV stops the run before any row is enrolled. */
export function readEnrollmentCsv(text: string, file: string): CsvRow[] {
  let csv: CsvFile;
  try {
    csv = readCsvFile(text);
  } catch (error) {
    if (!(error instanceof CsvFileError)) throw error;
    throw new CliError(`--csv: ${file} is ${error.message}`, EXIT.usage);
  }
  const { header, records } = csv;
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    throw new CliError(
      `--csv: ${file} has no ${missing.join(", ")} column; the header must be ${CSV_COLUMNS.join(",")}`,
      EXIT.usage,
    );
  }
  return records.map(({ record, line, error }) => ({
    line,
    email: record.email ?? "",
    name: record.name ?? "",
    phone: record.phone ?? "",
    plan: record.plan ?? "",
    ...(record.collection_method ? { collection_method: record.collection_method } : {}),
    ...(record.quantity ? { quantity: record.quantity } : {}),
    ...(error === undefined ? {} : { error }),
  }));
}

/** The customer's subscription to the plan that is not canceled (the enrolment rule), with its checkout link. */
async function openSubscription(ctx: Pick<EngineContext, "db">, customerId: string, planId: string) {
  const open = await findOpenSubscription(ctx.db, customerId, planId);
  if (!open) return undefined;
  const [subscription] = await ctx.db
    .select({
      id: subscriptions.id,
      status: subscriptions.status,
      collectionMethod: subscriptions.collectionMethod,
    })
    .from(subscriptions)
    .where(eq(subscriptions.id, open.id));
  if (!subscription) return undefined;
  const [enrollment] = await ctx.db
    .select({ status: enrollments.status, checkoutUrl: enrollments.checkoutUrl })
    .from(enrollments)
    .where(and(eq(enrollments.subscriptionId, subscription.id), ne(enrollments.status, "failed")))
    .orderBy(desc(sql`${enrollments.status} = 'pending'`), desc(enrollments.createdAt))
    .limit(1);
  return { ...subscription, checkoutUrl: enrollment?.checkoutUrl ?? null };
}

function isCollectionMethod(value: string): value is CollectionMethod {
  return (COLLECTION_METHODS as readonly string[]).includes(value);
}

async function enrollCsvRow(
  ctx: EngineContext,
  row: CsvRow,
  collectionMethod: CollectionMethod | undefined,
  quantity: number | undefined,
  base: RowResult,
): Promise<RowResult> {
  const plan = await getPlan(ctx, row.plan);
  if (!plan) return { ...base, error: `plan ${JSON.stringify(row.plan)} does not exist` };
  // Before the customer is created, so a plan that takes no subscriptions leaves nothing behind.
  assertPlanTakesSubscriptions(
    { id: plan.id, archivedAt: plan.archivedAt, currency: plan.amount.currency },
    ctx.config.GATEWAY_CURRENCIES,
  );
  const { customer } = await createCustomer(
    ctx,
    { email: row.email, name: row.name || undefined, phone: row.phone || undefined },
    { actor: CLI_ACTOR },
  );
  const existing = await openSubscription(ctx, customer.id, plan.id);
  if (existing) {
    const checkoutUrl =
      existing.checkoutUrl ??
      (existing.status === "pending_enrollment"
        ? (await startReEnrollment(ctx, { subscriptionId: existing.id, actor: CLI_ACTOR })).checkoutUrl
        : null);
    return {
      ...base,
      status: "existing",
      customer_id: customer.id,
      subscription_id: existing.id,
      collection_method: existing.collectionMethod,
      checkout_url: checkoutUrl,
    };
  }
  const enrolled = await subscribe(ctx, {
    customerId: customer.id,
    planId: plan.id,
    actor: CLI_ACTOR,
    collectionMethod,
    quantity,
  });
  return {
    ...base,
    status: "enrolled",
    customer_id: customer.id,
    subscription_id: enrolled.subscriptionId,
    collection_method: enrolled.collectionMethod,
    checkout_url: enrolled.checkoutUrl,
  };
}

/** Enrolls one row; a refusal of the row becomes a `rejected` result, anything else propagates. */
export async function enrollRow(ctx: EngineContext, row: CsvRow): Promise<RowResult> {
  const base: RowResult = {
    line: row.line,
    email: row.email,
    plan: row.plan,
    status: "rejected",
    customer_id: null,
    subscription_id: null,
    collection_method: null,
    checkout_url: null,
    error: null,
  };
  if (row.error) return { ...base, error: row.error };
  if (!row.email) return { ...base, error: "email is empty" };
  if (!row.plan) return { ...base, error: "plan is empty" };
  const method = row.collection_method;
  if (method !== undefined && !isCollectionMethod(method)) {
    return {
      ...base,
      error: `collection_method ${JSON.stringify(method)} is not one of ${COLLECTION_METHODS.join(", ")} (or empty: the plan's)`,
    };
  }
  const quantity = row.quantity === undefined ? undefined : Number(row.quantity);
  if (quantity !== undefined && !/^\d+$/.test(row.quantity ?? "")) {
    return { ...base, error: `quantity ${JSON.stringify(row.quantity)} is not a whole number (or empty: 1)` };
  }
  try {
    return await enrollCsvRow(ctx, row, method, quantity, base);
  } catch (error) {
    if (error instanceof CustomerInputError || error instanceof EnrollmentError) {
      return { ...base, error: error.message };
    }
    throw error;
  }
}
