import { randomBytes } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../../src/app/index.js";
import { ControllableClock } from "../../../src/clock/index.js";
import { ConfigError, loadConfig } from "../../../src/config/index.js";
import { isSharedClock } from "../../../src/context/index.js";
import { openSealedText } from "../../../src/crypto/index.js";
import { findFreePort } from "../../../src/infra/index.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { REDIS_URL } from "../../support/engine.js";

let database: TestDatabase;
let sim: RunningSimulator;
let keyDir: string;

function env(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    REDIS_URL,
    GATEWAY_API_KEY: sim.defaultApiKey,
    BILLING_CLOCK: "controllable",
    BILLING_CLOCK_START: "2026-01-15T09:00:00Z",
    TOKEN_DEV_KEY_FILE: path.join(keyDir, "keys", "token-key"),
    QUEUE_PREFIX: `t_${randomBytes(5).toString("hex")}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    ...overrides,
  };
}

async function engineWith(overrides: NodeJS.ProcessEnv = {}): Promise<Engine> {
  return createEngine(loadConfig(env(overrides)), {
    gatewayUrls: { baseUrl: sim.url, legacyUrl: sim.url },
    onClockChange: (now) => sim.clock.set(now),
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  sim = await startSimulator({ clock: new ControllableClock("2020-01-01T00:00:00Z") });
  keyDir = await mkdtemp(path.join(tmpdir(), "billing-engine-"));
});
afterAll(async () => {
  await sim?.close();
  await database?.drop();
  if (keyDir) await rm(keyDir, { recursive: true, force: true });
});

describe("createEngine", () => {
  it("builds a working context from the configuration and closes cleanly", async () => {
    const engine = await engineWith({ DUNNING_RETRY_DAYS: "2,4", DUNNING_TERMINAL_ACTION: "cancel" });
    const { ctx } = engine;
    try {
      await expect(ctx.gateway.legacy.checkStatus({ orderId: "no-such-order" })).resolves.toEqual({
        found: false,
      });
      expect(ctx.dunning).toEqual({ retryOffsetsDays: [2, 4], maxAttempts: 3, terminalAction: "cancel" });
      expect(ctx.publicUrl).toBe("http://localhost:3000");
      expect(ctx.queues.backend).toBe("redis");
      const sealed = ctx.vault.encrypt("card-token|+/+/x==");
      expect(sealed.keyId).toBe("dev");
      expect(ctx.vault.decrypt(sealed)).toBe("card-token|+/+/x==");

      // The controllable clock lives in the database, and the in-process simulator follows it.
      expect(isSharedClock(ctx.clock)).toBe(true);
      expect(ctx.clock.now().toISO()).toBe("2026-01-15T09:00:00.000Z");
      expect(sim.clock.now().toISO()).toBe("2026-01-15T09:00:00.000Z");
      if (isSharedClock(ctx.clock)) await ctx.clock.advance("P1D");
      expect(sim.clock.now().toISO()).toBe("2026-01-16T09:00:00.000Z");
    } finally {
      await engine.close();
      await engine.close();
    }
    await expect(ctx.db.execute("select 1")).rejects.toThrow();
  });

  it("keeps one development token key across processes, in a file only its owner reads", async () => {
    const first = await engineWith();
    const second = await engineWith({ PUBLIC_URL: "https://billing.example.com/" });
    try {
      const sealed = first.ctx.vault.encrypt("tok_123");
      expect(second.ctx.vault.decrypt(sealed)).toBe("tok_123");
      const info = await stat(path.join(keyDir, "keys", "token-key"));
      expect(info.mode & 0o777).toBe(0o600);
      expect(second.ctx.publicUrl).toBe("https://billing.example.com");
      expect(second.ctx.clock.now().toISO()).toBe("2026-01-16T09:00:00.000Z");
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("uses the configured key and the system clock when told to", async () => {
    const engine = await engineWith({
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      BILLING_CLOCK: "system",
    });
    try {
      expect(engine.ctx.vault.currentKeyId).toBe("k1");
      expect(isSharedClock(engine.ctx.clock)).toBe(false);
    } finally {
      await engine.close();
    }
  });

  it("seals webhook signing secrets left in clear by an earlier version, after migrating", async () => {
    const clear = "whsec_written_before_sealing_existed";
    await database.sql`insert into webhook_endpoints (url, secret) values ('https://203.0.113.10/hooks', ${clear})`;
    const engine = await engineWith();
    try {
      const [row] = await database.sql<{ secret: string }[]>`select secret from webhook_endpoints`;
      expect(row?.secret).toMatch(/^v1:dev:/);
      expect(openSealedText(engine.ctx.vault, row!.secret)).toBe(clear);
    } finally {
      await engine.close();
    }
  });

  it("reports every missing setting at once, before connecting to anything", async () => {
    const config = loadConfig({
      NODE_ENV: "production",
      LOG_LEVEL: "silent",
      DUNNING_RETRY_DAYS: "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21",
    });
    const failure = await createEngine(config).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).problems.map((problem) => problem.variable)).toEqual([
      "DATABASE_URL",
      "GATEWAY_API_KEY",
      "GATEWAY_BASE_URL",
      "GATEWAY_LEGACY_URL",
      "TOKEN_ENCRYPTION_KEY",
      "DUNNING_RETRY_DAYS",
    ]);
    expect((failure as ConfigError).message).toMatch(/Visa/);
  });

  it("names DATABASE_URL and where it points, not its password, when the database does not answer", async () => {
    const port = await findFreePort();
    const engine = engineWith({ DATABASE_URL: `postgres://billing:s3cret-pw@127.0.0.1:${port}/billing` });
    await expect(engine).rejects.toMatchObject({
      message:
        `DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:${port} (user billing, database billing): ` +
        `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it("names REDIS_URL and where it points, not its password, when Redis does not answer", async () => {
    const port = await findFreePort();
    const engine = engineWith({ REDIS_URL: `redis://:s3cret-pw@127.0.0.1:${port}` });
    await expect(engine).rejects.toMatchObject({
      message: `REDIS_URL: cannot connect to Redis at 127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });
});
