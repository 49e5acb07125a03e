/**
 * A charge worker that dies mid-charge, for crash.test.ts. Run as a child process:
 *
 *   node --import tsx test/integration/charging/crash-worker.ts
 *
 * with CRASH_DATABASE_URL, CRASH_GATEWAY_URL, CRASH_API_KEY, CRASH_TOKEN_KEY (hex), CRASH_NOW (ISO),
 * CRASH_CHARGE_ID and CRASH_AT in the environment. It runs the same building blocks as
 * processCharge (loadCharge, recordAttempt, callGateway) and SIGKILLs itself at CRASH_AT, before
 * recordOutcome:
 *   - "after_reply": the attempt is committed and the gateway took the payment;
 *   - "before_call": the attempt is committed and the gateway was never called.
 * Each step is reported as one JSON line on stdout, written synchronously so it survives the kill.
 * The crash lives here, in the test, not in production code.
 */
import { writeSync } from "node:fs";
import { callGateway, loadCharge, recordAttempt } from "../../../src/charging/index.js";
import { ControllableClock } from "../../../src/clock/index.js";
import { createTokenVault } from "../../../src/crypto/index.js";
import { createDb } from "../../../src/db/index.js";
import { createGatewayClient } from "../../../src/gateway/index.js";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

function report(step: Record<string, unknown>): void {
  writeSync(1, `${JSON.stringify(step)}\n`);
}

function die(): never {
  process.kill(process.pid, "SIGKILL");
  throw new Error("unreachable: SIGKILL was sent");
}

const crashAt = env("CRASH_AT");
const chargeId = env("CRASH_CHARGE_ID");
const { db } = createDb(env("CRASH_DATABASE_URL"), { max: 2 });
const clock = new ControllableClock(env("CRASH_NOW"));
const gateway = createGatewayClient({
  baseUrl: env("CRASH_GATEWAY_URL"),
  legacyUrl: env("CRASH_GATEWAY_URL"),
  apiKey: env("CRASH_API_KEY"),
  timeoutMs: 5_000,
});
const vault = createTokenVault({
  currentKeyId: "k1",
  currentKey: Buffer.from(env("CRASH_TOKEN_KEY"), "hex"),
});

const snapshot = await loadCharge(db, chargeId, { quietPeriodMs: 0 });
if (!snapshot?.paymentMethod) throw new Error(`charge ${chargeId} has no card to charge`);
const cardToken = vault.decrypt(snapshot.paymentMethod.sealed);
const attempt = await recordAttempt({ db, clock }, snapshot.charge, { actor: "crash-worker", forced: false });
if (!attempt) throw new Error(`charge ${chargeId} could not be claimed`);
report({ step: "attempt_recorded", orderId: attempt.orderId });
if (crashAt === "before_call") die();

const outcome = await callGateway(
  { gateway },
  {
    cardToken,
    kind: snapshot.paymentMethod.kind,
    orderId: attempt.orderId,
    amount: { minor: snapshot.charge.amountMinor, currency: snapshot.charge.currency },
  },
);
report({ step: "gateway_replied", outcome: outcome.kind });
die();
