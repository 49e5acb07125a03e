import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../../src/app/index.js";
import { MESSAGE_KINDS } from "../../../src/billing/index.js";
import { ControllableClock } from "../../../src/clock/index.js";
import { ConfigError, loadConfig } from "../../../src/config/index.js";
import { merchantSettings } from "../../../src/db/schema/index.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { createEngineHarness, REDIS_URL } from "../../support/engine.js";

/**
 * Every engine process writes the merchant's settings to merchant_settings when it boots, where
 * the transactions that write receipts and customer messages read them; the test harness too.
 */

let database: TestDatabase;
let sim: RunningSimulator;
let keyDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  sim = await startSimulator({ clock: new ControllableClock("2026-01-15T09:00:00Z") });
  keyDir = await mkdtemp(path.join(tmpdir(), "billing-settings-"));
});
afterAll(async () => {
  await sim?.close();
  await database?.drop();
  if (keyDir) await rm(keyDir, { recursive: true, force: true });
});

async function boot(overrides: NodeJS.ProcessEnv, options: { writeMerchantSettings?: boolean } = {}) {
  const config = loadConfig({
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    REDIS_URL,
    GATEWAY_API_KEY: sim.defaultApiKey,
    TOKEN_DEV_KEY_FILE: path.join(keyDir, "token-key"),
    QUEUE_PREFIX: `t_${randomBytes(5).toString("hex")}`,
    LOG_LEVEL: "silent",
    ...overrides,
  });
  const engine = await createEngine(config, {
    gatewayUrls: { baseUrl: sim.url, legacyUrl: sim.url },
    ...options,
  });
  await engine.close();
}

async function settingsRow(db = database.db) {
  const rows = await db.select().from(merchantSettings);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe("merchant settings at boot", () => {
  it("are written from the configuration, and rewritten by the next process to boot", async () => {
    await boot({
      TAX_RATE_PERCENT: "12.5",
      TAX_LABEL: "GST",
      MESSAGES_DISABLED: "receipt, renewal_upcoming",
      GATEWAY_RECORD_PAID_INVOICES: "true",
    });
    expect(await settingsRow()).toMatchObject({
      id: 1,
      taxRateBp: 1_250,
      taxLabel: "GST",
      messagesDisabled: ["receipt", "renewal_upcoming"],
      recordPaidInvoices: true,
    });

    await boot({ MESSAGES_DISABLED: "all" });
    expect(await settingsRow()).toMatchObject({
      taxRateBp: 0,
      taxLabel: "VAT",
      messagesDisabled: [...MESSAGE_KINDS],
      recordPaidInvoices: false,
    });
  });

  it("are left alone by a process that only borrows the engine (a CLI command)", async () => {
    const before = await settingsRow();
    await boot({ TAX_RATE_PERCENT: "5" }, { writeMerchantSettings: false });
    expect(await settingsRow()).toEqual(before);
  });

  it("stop the boot, naming the variable, when a disabled kind is not a message kind", async () => {
    const before = await settingsRow();
    const booting = boot({ MESSAGES_DISABLED: "receipt,newsletter" });
    await expect(booting).rejects.toThrow(ConfigError);
    await expect(booting).rejects.toThrow(/MESSAGES_DISABLED: "newsletter" is not a message kind/);
    expect(await settingsRow()).toEqual(before);
  });

  it("are written by the test harness as createEngine writes them", async () => {
    const h = await createEngineHarness({
      env: { TAX_RATE_PERCENT: "15", MESSAGES_DISABLED: "payment_due" },
    });
    try {
      expect(await settingsRow(h.ctx.db)).toMatchObject({
        taxRateBp: 1_500,
        messagesDisabled: ["payment_due"],
        recordPaidInvoices: false,
      });
    } finally {
      await h.close();
    }
  });
});
