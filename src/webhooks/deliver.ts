import { and, eq } from "drizzle-orm";
import type { DateTime } from "luxon";
import { TokenVaultError } from "../crypto/index.js";
import type { Db } from "../db/index.js";
import { webhookDeliveries, webhookEndpoints } from "../db/schema/index.js";
import { webhookEventId } from "../events/index.js";
import { countWebhookDelivery } from "../metrics/index.js";
import { compileAllowList } from "./address-policy.js";
import { DEFAULT_WEBHOOK_TIMEOUT_MS, type WebhookContext } from "./context.js";
import { DestinationRefusedError, guardedLookup, literalAddressRefusal } from "./destination.js";
import { type WebhookRetryPolicy, webhookRetryDelay, webhookRetryPolicy } from "./retry-policy.js";
import { openWebhookSecret } from "./secrets.js";
import { type SendResult, sendWebhook } from "./send.js";
import { SIGNATURE_HEADER, signWebhook } from "./signature.js";

/**
 * Sends one delivery once. This is what a `webhooks` job runs, and what the dispatcher runs
 * inline when there is no queue.
 *
 * The database is the schedule; BullMQ only carries the message. An attempt is claimed in a short
 * transaction before anything is sent: attempts + 1, and next_attempt_at pushed to when the next
 * attempt would be due (at least the request timeout away). The claim is what makes duplicate
 * jobs harmless (a second job for the same delivery finds it not due and skips), and it doubles as
 * a lease: if the process dies mid-request, the delivery simply comes due again and the
 * dispatcher finds it. The outcome is then recorded: 2xx → delivered; anything else → the next
 * attempt after exponential backoff, or failed after the last one.
 *
 * A refused or failed request is an outcome, not an error: it is recorded and returned, so the
 * job completes and the next attempt happens when the dispatcher (or the delayed hint the worker
 * adds, see queue.ts) comes for it. Only an infrastructure failure (Postgres unreachable) throws;
 * BullMQ's own job retry then tries again soon, which is all a job retry is here: a hint.
 *
 * The address connected to must pass the address policy (destination.ts); a refused one is a
 * failed attempt like any other, recorded as "destination refused: …" and retried on the same
 * schedule (the name may resolve elsewhere later), until the attempts run out.
 *
 * Delivery is at least once: a crash after the endpoint answered but before the outcome was
 * stored resends the event later, so receivers deduplicate on Billing-Event-Id.
 *
 * Each recorded outcome is counted in billing_webhook_deliveries_total (delivered, retry, failed)
 * after its write; a skipped delivery sent nothing and is not counted.
 */

export const EVENT_ID_HEADER = "Billing-Event-Id";
export const EVENT_TYPE_HEADER = "Billing-Event-Type";

/** Room beyond the request timeout before a claimed attempt is considered abandoned. */
const LEASE_MARGIN_MS = 30_000;

export type DeliveryOutcome =
  | { status: "delivered"; deliveryId: string; attempts: number; statusCode: number }
  | {
      status: "retry_scheduled";
      deliveryId: string;
      attempts: number;
      nextAttemptAt: DateTime;
      statusCode: number | null;
      error: string;
    }
  | { status: "failed"; deliveryId: string; attempts: number; statusCode: number | null; error: string }
  /** Nothing sent: no such delivery, already finished, or not due (another worker holds the attempt). */
  | { status: "skipped"; deliveryId: string; reason: "not_found" | "not_pending" | "not_due" };

interface ClaimedAttempt {
  attempt: number;
  delayMs: number;
  url: string;
  secret: string;
  endpointId: string;
  eventId: number;
  eventType: string;
  payload: Record<string, unknown>;
}

/** The URL without credentials or query string, which may carry a merchant's token. */
function loggableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "[unparsable url]";
  }
}

async function claimAttempt(
  db: Db,
  deliveryId: string,
  now: DateTime,
  policy: WebhookRetryPolicy,
  timeoutMs: number,
): Promise<ClaimedAttempt | DeliveryOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        status: webhookDeliveries.status,
        attempts: webhookDeliveries.attempts,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        lastStatusCode: webhookDeliveries.lastStatusCode,
        eventId: webhookDeliveries.eventId,
        eventType: webhookDeliveries.eventType,
        payload: webhookDeliveries.payload,
        endpointId: webhookEndpoints.id,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
        enabled: webhookEndpoints.enabled,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, deliveryId))
      .for("update", { of: webhookDeliveries });
    if (!row) return { status: "skipped", deliveryId, reason: "not_found" };
    if (row.status !== "pending") return { status: "skipped", deliveryId, reason: "not_pending" };
    if (row.nextAttemptAt === null || row.nextAttemptAt > now.toJSDate()) {
      return { status: "skipped", deliveryId, reason: "not_due" };
    }
    // Disabling an endpoint fails its pending deliveries, but an event recorded concurrently can
    // still add one. And no attempts can be left only if the last one never reported back.
    const giveUp = !row.enabled
      ? "endpoint disabled"
      : row.attempts >= policy.maxAttempts
        ? `no outcome recorded for attempt ${row.attempts} of ${policy.maxAttempts}`
        : null;
    if (giveUp) {
      await tx
        .update(webhookDeliveries)
        .set({ status: "failed", nextAttemptAt: null, lastError: giveUp })
        .where(eq(webhookDeliveries.id, deliveryId));
      return {
        status: "failed",
        deliveryId,
        attempts: row.attempts,
        statusCode: row.lastStatusCode,
        error: giveUp,
      };
    }
    const attempt = row.attempts + 1;
    const delayMs = webhookRetryDelay(attempt, policy);
    const leaseMs = Math.max(delayMs, timeoutMs + LEASE_MARGIN_MS);
    await tx
      .update(webhookDeliveries)
      .set({ attempts: attempt, nextAttemptAt: now.plus({ milliseconds: leaseMs }).toJSDate() })
      .where(eq(webhookDeliveries.id, deliveryId));
    return {
      attempt,
      delayMs,
      url: row.url,
      secret: row.secret,
      endpointId: row.endpointId,
      eventId: row.eventId,
      eventType: row.eventType,
      payload: row.payload,
    };
  });
}

const failedBeforeSending = (error: string): SendResult => ({
  ok: false,
  statusCode: null,
  error,
  durationMs: 0,
});

/**
 * Sends the claimed attempt. A destination the address policy refuses, or a secret that cannot be
 * opened (its key missing from TOKEN_ENCRYPTION_OLD_KEYS), fails the attempt before anything is sent.
 */
async function attemptSend(
  ctx: WebhookContext,
  claim: ClaimedAttempt,
  eventId: string,
  timeoutMs: number,
): Promise<SendResult> {
  const allow = compileAllowList(ctx.config.WEBHOOK_ALLOWED_HOSTS);
  const literalRefusal = literalAddressRefusal(claim.url, allow);
  if (literalRefusal) return failedBeforeSending(new DestinationRefusedError(literalRefusal).message);
  let secret: string;
  try {
    secret = openWebhookSecret(ctx.vault, claim.secret);
  } catch (error) {
    if (!(error instanceof TokenVaultError)) throw error;
    return failedBeforeSending(`signing secret could not be opened: ${error.message}`);
  }
  const body = JSON.stringify(claim.payload);
  return sendWebhook({
    lookup: guardedLookup(allow, ctx.resolve),
    url: claim.url,
    body,
    timeoutMs,
    headers: {
      "content-type": "application/json",
      "user-agent": "billing-engine-webhooks/1",
      // Wall-clock seconds: the receiver checks them against its own clock, not our billing clock.
      [SIGNATURE_HEADER]: signWebhook({ secret, rawBody: body, timestamp: Math.floor(Date.now() / 1000) }),
      [EVENT_ID_HEADER]: eventId,
      [EVENT_TYPE_HEADER]: claim.eventType,
    },
  });
}

export async function deliverWebhook(ctx: WebhookContext, deliveryId: string): Promise<DeliveryOutcome> {
  const policy = webhookRetryPolicy(ctx.retry);
  const timeoutMs = ctx.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const claim = await claimAttempt(ctx.db, deliveryId, ctx.clock.now(), policy, timeoutMs);
  const log = ctx.logger.child({ component: "webhooks", deliveryId });
  if ("status" in claim) {
    if (claim.status === "failed") countWebhookDelivery("failed");
    log.debug({ outcome: claim }, "webhook delivery not attempted");
    return claim;
  }

  const eventId = webhookEventId(claim.eventId);
  const result = await attemptSend(ctx, claim, eventId, timeoutMs);

  const now = ctx.clock.now();
  const logFields = {
    eventId,
    eventType: claim.eventType,
    endpointId: claim.endpointId,
    url: loggableUrl(claim.url),
    attempt: claim.attempt,
    maxAttempts: policy.maxAttempts,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
  };
  // A later attempt may have taken over after this one outlived its lease; only the newest
  // attempt's outcome is kept, except that a 2xx from any attempt means delivered.
  const stillOurs = and(
    eq(webhookDeliveries.id, deliveryId),
    eq(webhookDeliveries.status, "pending"),
    eq(webhookDeliveries.attempts, claim.attempt),
  );

  if (result.ok) {
    await ctx.db
      .update(webhookDeliveries)
      .set({
        lastStatusCode: result.statusCode,
        lastError: null,
        status: "delivered",
        deliveredAt: now.toJSDate(),
        nextAttemptAt: null,
      })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending")));
    countWebhookDelivery("delivered");
    log.info(logFields, "webhook delivered");
    return { status: "delivered", deliveryId, attempts: claim.attempt, statusCode: result.statusCode };
  }

  const { error } = result;
  const recorded = { lastStatusCode: result.statusCode, lastError: error };
  if (claim.attempt >= policy.maxAttempts) {
    await ctx.db
      .update(webhookDeliveries)
      .set({ ...recorded, status: "failed", nextAttemptAt: null })
      .where(stillOurs);
    countWebhookDelivery("failed");
    log.error({ ...logFields, error }, "webhook delivery failed; no attempts left");
    return { status: "failed", deliveryId, attempts: claim.attempt, statusCode: result.statusCode, error };
  }

  const nextAttemptAt = now.plus({ milliseconds: claim.delayMs });
  await ctx.db
    .update(webhookDeliveries)
    .set({ ...recorded, nextAttemptAt: nextAttemptAt.toJSDate() })
    .where(stillOurs);
  countWebhookDelivery("retry");
  log.warn(
    { ...logFields, error, nextAttemptAt: nextAttemptAt.toISO() },
    "webhook attempt failed; will retry",
  );
  return {
    status: "retry_scheduled",
    deliveryId,
    attempts: claim.attempt,
    nextAttemptAt,
    statusCode: result.statusCode,
    error,
  };
}
