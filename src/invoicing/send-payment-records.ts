import { type DateTime, Duration } from "luxon";
import { formatDocumentNumber, nextRecordAttempt } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInstant, pgInteger } from "../db/index.js";
import {
  GatewayAuthenticationError,
  GatewayError,
  GatewayRejectedError,
  GatewayUnavailableError,
} from "../gateway/index.js";
import { loadChargeFacts } from "./charge-facts.js";
import { type ClaimedRecord, claimPaymentRecords } from "./claim-payment-records.js";
import { isNumberTaken } from "./number-taken.js";
import { paidInvoiceRequestFor } from "./paid-invoice-request.js";
import {
  type RecordSubjects,
  recordCreated,
  recordFailed,
  recordRetry,
  releaseClaims,
} from "./payment-record-outcomes.js";

/**
 * The tick's sweep of paid charges to record in the merchant's gateway account as paid invoices
 * (GATEWAY_RECORD_PAID_INVOICES; the paying transaction wrote the pending record). Rules:
 * - due records are claimed with their attempt counted and a lease (claim-payment-records.ts),
 *   then sent one at a time (POST /v1/invoices, paid-invoice-request.ts);
 * - a created invoice settles the record with the gateway's id;
 * - a refusal retrying cannot fix ends it as failed with the gateway's reason; so does "number
 *   already exists", which means an earlier attempt created it and its reply was lost: the invoice
 *   is there, but without its id the record cannot say `created` (last_error says to look it up);
 * - anything else (the gateway unreachable or slow, credentials refused, a failure of ours) is
 *   tried again with backoff (billing/record-retry.ts) until the attempts run out, then failed;
 * - once the gateway is found unreachable, the rest of the batch is handed back unsent, so a tick
 *   spends one timeout on an outage, not one per record;
 * - the charge is never touched: it stays paid whatever happens to its record.
 */
const LEASE = Duration.fromObject({ minutes: 10 });

export interface PaymentRecordCounts {
  created: number;
  retrying: number;
  failed: number;
}

type Ctx = Pick<EngineContext, "db" | "clock" | "gateway" | "logger">;

type Outcome = keyof PaymentRecordCounts | "unreachable";

export async function sendPaymentRecords(ctx: Ctx, options: { limit: number }): Promise<PaymentRecordCounts> {
  const now = ctx.clock.now();
  const claimed = await claimPaymentRecords(ctx.db.$client, {
    now,
    leaseUntil: now.plus(LEASE),
    limit: options.limit,
  });
  const counts: PaymentRecordCounts = { created: 0, retrying: 0, failed: 0 };
  for (const [index, record] of claimed.entries()) {
    const outcome = await sendOne(ctx, record, now);
    counts[outcome === "unreachable" ? "retrying" : outcome] += 1;
    if (outcome === "unreachable") {
      const rest = claimed.slice(index + 1).map((unsent) => unsent.charge_id);
      await releaseClaims(ctx, rest, now);
      break;
    }
  }
  return counts;
}

async function sendOne(ctx: Ctx, record: ClaimedRecord, now: DateTime): Promise<Outcome> {
  const number = formatDocumentNumber("receipt", pgInteger(record.receipt_number));
  const subjects: RecordSubjects = {
    chargeId: record.charge_id,
    subscriptionId: record.subscription_id,
    customerId: record.customer_id,
  };
  try {
    const facts = await loadChargeFacts(ctx, record.charge_id);
    const invoice = await ctx.gateway.v1.createInvoice(
      paidInvoiceRequestFor(
        { ...facts, issuedAt: pgInstant(record.issued_at) },
        {
          receiptNumber: number,
          transactionId: record.paid_transaction_id,
          paidAt: pgInstant(record.paid_at),
        },
      ),
    );
    await recordCreated(ctx, subjects, { id: invoice.id, number }, now);
    ctx.logger.info({ chargeId: record.charge_id, gatewayInvoiceId: invoice.id, number }, "payment recorded");
    return "created";
  } catch (error) {
    return settleFailure(ctx, record, subjects, error, now);
  }
}

async function settleFailure(
  ctx: Ctx,
  record: ClaimedRecord,
  subjects: RecordSubjects,
  error: unknown,
  now: DateTime,
): Promise<Outcome> {
  const reason = error instanceof GatewayError ? error.message : String(error);
  const final = finalReason(error, reason, record);
  const retryAt = final === null ? nextRecordAttempt(record.attempts, now) : null;
  if (retryAt === null) {
    const why = final ?? `attempts ran out: ${reason}`;
    await recordFailed(ctx, subjects, why, record.attempts, now);
    ctx.logger.error({ chargeId: record.charge_id, reason: why }, "paid charge not recorded at the gateway");
    return "failed";
  }
  await recordRetry(ctx, record.charge_id, reason, retryAt);
  ctx.logger.warn(
    { chargeId: record.charge_id, attempts: record.attempts, err: error },
    "recording the paid charge at the gateway failed; will retry",
  );
  return error instanceof GatewayUnavailableError ? "unreachable" : "retrying";
}

/** Why retrying cannot help, or null when it may. Refused credentials are configuration: they may be fixed. */
function finalReason(error: unknown, reason: string, record: ClaimedRecord): string | null {
  if (!(error instanceof GatewayRejectedError) || error instanceof GatewayAuthenticationError) return null;
  if (!isNumberTaken(error)) return `gateway refused the invoice: ${reason}`;
  const number = formatDocumentNumber("receipt", pgInteger(record.receipt_number));
  return (
    `the gateway already holds invoice number ${number} (an earlier attempt created it and its reply ` +
    "was lost); its gateway id is unknown: look it up in the merchant account"
  );
}
