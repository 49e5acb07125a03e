import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateDrizzleJson, generateMigration } from "drizzle-kit/api";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client.js";
import { isMigrated, MIGRATIONS_FOLDER, migrateDatabase } from "../../src/db/migrate.js";
import * as schema from "../../src/db/schema/index.js";
import { withDatabase } from "../../src/db/url.js";

const ADMIN_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const journal: { entries: { tag: string }[] } = JSON.parse(
  readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8"),
);
const TABLES = [
  "plans",
  "customers",
  "subscriptions",
  "payment_methods",
  "enrollments",
  "charges",
  "charge_attempts",
  "payment_links",
  "invoices",
  "refunds",
  "events",
  "api_keys",
  "idempotency_keys",
  "webhook_endpoints",
  "webhook_deliveries",
  "clock_state",
  "gateway_breaker",
  "gateway_budget_flying",
  "gateway_budget_log",
  "gateway_budgets",
  "gateway_signals",
  "tick_runs",
  "ops_sessions",
  "ops_collection_days",
  "coupons",
  "subscription_discounts",
  "plan_changes",
  "portal_links",
  "portal_sessions",
  "merchant_settings",
  "document_series",
  "receipts",
  "credit_notes",
  "customer_messages",
  "gateway_payment_records",
  "features",
  "plan_features",
  "meters",
  "usage_events",
  "usage_event_keys",
  "addons",
  "subscription_addons",
  "one_off_charges",
  "charge_lines",
  "plan_usage_prices",
];

const created: string[] = [];

function freshUrl(): { name: string; url: string } {
  const name = `billing_test_${randomBytes(6).toString("hex")}`;
  created.push(name);
  return { name, url: withDatabase(ADMIN_URL, name) };
}

async function withAdmin<T>(run: (sql: postgres.Sql) => Promise<T>, url = ADMIN_URL): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end();
  }
}

afterEach(async () => {
  const names = created.splice(0);
  await withAdmin(async (sql) => {
    for (const name of names) await sql`drop database if exists ${sql(name)} with (force)`;
  });
});

describe("migrateDatabase", () => {
  it("creates a missing database, applies every migration, then finds nothing to do", async () => {
    const { name, url } = freshUrl();

    expect(await migrateDatabase(url)).toEqual({ databaseCreated: true, applied: journal.entries.length });
    expect(await migrateDatabase(url)).toEqual({ databaseCreated: false, applied: 0 });

    await withAdmin(async (sql) => {
      const [row] = await sql`select count(*)::int as n from pg_database where datname = ${name}`;
      expect(row?.n).toBe(1);
    });
    await withAdmin(async (sql) => {
      const found = await sql<{ table: string }[]>`
        select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition`;
      expect(found.map((r) => r.table).sort()).toEqual([...TABLES].sort());
      const [ledger] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
      expect(ledger?.n).toBe(journal.entries.length);
    }, url);
  });

  it("lets several processes migrate one fresh database at once, applying each migration once", async () => {
    const { url } = freshUrl();

    const results = await Promise.all([1, 2, 3, 4].map(() => migrateDatabase(url)));

    expect(results.filter((r) => r.databaseCreated)).toHaveLength(1);
    expect(results.reduce((sum, r) => sum + r.applied, 0)).toBe(journal.entries.length);
    await withAdmin(async (sql) => {
      const [ledger] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
      expect(ledger?.n).toBe(journal.entries.length);
    }, url);
  });

  it("quotes the database name it creates and connects to that same name", async () => {
    const name = `billing_test_${randomBytes(4).toString("hex")}_Odd "Name"`;
    created.push(name);
    const url = withDatabase(ADMIN_URL, name);

    expect(await migrateDatabase(url)).toEqual({ databaseCreated: true, applied: journal.entries.length });
    const client = createDb(url, { max: 1 });
    try {
      expect(await client.sql`select current_database() as name`).toEqual([{ name }]);
    } finally {
      await client.close();
    }
  });

  it("refuses a URL that names no database", async () => {
    await expect(migrateDatabase("postgres://postgres@127.0.0.1:5432")).rejects.toThrow(/names no database/);
  });

  it("has migrations generated from the current schema (run `npx drizzle-kit generate` if not)", async () => {
    const last = journal.entries.length - 1;
    const snapshot = JSON.parse(
      readFileSync(
        path.join(MIGRATIONS_FOLDER, `meta/${String(last).padStart(4, "0")}_snapshot.json`),
        "utf8",
      ),
    );
    const current = generateDrizzleJson(schema, snapshot.id);

    expect(await generateMigration(snapshot, current)).toEqual([]);
  });
});

describe("isMigrated", () => {
  it("says whether a database has every migration of the folder, as migrateDatabase would find", async () => {
    const { url } = freshUrl();
    await withAdmin((sql) => sql`create database ${sql(new URL(url).pathname.slice(1))}`);
    // A folder whose journal has one migration more, newer than any applied.
    const ahead = mkdtempSync(path.join(tmpdir(), "migrations-"));
    cpSync(MIGRATIONS_FOLDER, ahead, { recursive: true });
    const entries = JSON.parse(readFileSync(path.join(ahead, "meta/_journal.json"), "utf8")).entries;
    const next = { ...entries.at(-1), idx: entries.length, when: entries.at(-1).when + 1, tag: "9999_next" };
    writeFileSync(path.join(ahead, "meta/_journal.json"), JSON.stringify({ entries: [...entries, next] }));
    try {
      await withAdmin(async (sql) => {
        expect(await isMigrated(sql)).toBe(false); // no ledger yet
        await migrateDatabase(url);
        expect(await isMigrated(sql)).toBe(true);
        expect(await isMigrated(sql, ahead)).toBe(false);
      }, url);
    } finally {
      rmSync(ahead, { recursive: true, force: true });
    }
  });
  it("0008 names each earlier charge's plan: the plan before a later change, or the change's new plan", async () => {
    const { url } = freshUrl();
    const before = mkdtempSync(path.join(tmpdir(), "migrations-"));
    cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
    const upTo = journal.entries.findIndex((entry) => entry.tag === "0008_charge_plan");
    const entries = JSON.parse(readFileSync(path.join(before, "meta/_journal.json"), "utf8")).entries;
    writeFileSync(
      path.join(before, "meta/_journal.json"),
      JSON.stringify({ entries: entries.slice(0, upTo) }),
    );
    try {
      await migrateDatabase(url, { migrationsFolder: before });
      const plan = await withAdmin(async (sql) => {
        const [basic, gold, silver] = await sql<{ id: string }[]>`
          insert into plans (name, amount_minor, currency, interval_unit, interval_count)
          values ('Basic', 10000, 'QAR', 'month', 1), ('Gold', 20000, 'QAR', 'month', 1),
                 ('Silver', 5000, 'QAR', 'month', 1)
          returning id`;
        const [customer] = await sql<{ id: string }[]>`
          insert into customers (email, name) values ('m@example.qa', 'M') returning id`;
        const subscribe = async (planId: string) =>
          (
            await sql<{ id: string }[]>`
              insert into subscriptions (customer_id, plan_id, status, billing_anchor, current_period_start,
                current_period_end, next_billing_at)
              values (${customer!.id}, ${planId}, 'active', '2026-01-01Z', '2026-01-01Z', '2026-02-01Z', '2026-02-01Z')
              returning id`
          )[0]!.id;
        const changed = await subscribe(gold!.id);
        const kept = await subscribe(silver!.id);
        const charge = async (subscriptionId: string, start: string, createdAt: string, changeId?: string) =>
          (
            await sql<{ id: string }[]>`
              insert into charges (subscription_id, kind, plan_change_id, period_start, period_end, amount_minor,
                currency, status, created_at)
              values (${subscriptionId}, ${changeId ? "plan_change" : "period"}, ${changeId ?? null}, ${start},
                ${start}::timestamptz + interval '1 month', 100, 'QAR', 'uncollectible', ${createdAt})
              returning id`
          )[0]!.id;
        const january = await charge(changed, "2026-01-01Z", "2026-01-01T00:00:01Z");
        const [change] = await sql<{ id: string }[]>`
          insert into plan_changes (subscription_id, from_plan_id, to_plan_id, proration, status, effective_at,
            currency, applied_at, actor)
          values (${changed}, ${basic!.id}, ${gold!.id}, 'immediate_prorate', 'applied', '2026-01-15Z', 'QAR',
            '2026-01-15Z', 'test')
          returning id`;
        const difference = await charge(changed, "2026-01-15Z", "2026-01-15Z", change!.id);
        const february = await charge(changed, "2026-02-01Z", "2026-02-01T00:00:01Z");
        const silverJanuary = await charge(kept, "2026-01-01Z", "2026-01-01T00:00:01Z");
        return {
          basic: basic!.id,
          gold: gold!.id,
          silver: silver!.id,
          january,
          difference,
          february,
          silverJanuary,
        };
      }, url);

      await migrateDatabase(url);

      const named = await withAdmin(
        (sql) => sql<{ id: string; plan_id: string }[]>`select id, plan_id from charges`,
        url,
      );
      expect(Object.fromEntries(named.map((row) => [row.id, row.plan_id]))).toEqual({
        [plan.january]: plan.basic,
        [plan.difference]: plan.gold,
        [plan.february]: plan.gold,
        [plan.silverJanuary]: plan.silver,
      });
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
  });
});
