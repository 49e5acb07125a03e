import { isIP } from "node:net";
import { z } from "zod";
import { isCurrency } from "../money/index.js";

/**
 * Every setting of the engine, read from the environment once at boot. Each variable is listed in
 * the README. A bad value stops the process with one message naming every offending variable.
 */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const url = z.url({ protocol: /^(https?|postgres(ql)?|rediss?)$/ });
const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), url.optional());
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const csvDays = z
  .string()
  .regex(/^\d+(\s*,\s*\d+)*$/, "expected comma-separated whole days, e.g. 1,3,5,7")
  .transform((s) => s.split(",").map((d) => Number(d.trim())));

const HOST_NAME =
  /^(?=.{1,253}\.?$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;

/** A host name, an IP address, or a network as address/prefix-length. */
function isHostOrNetwork(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (prefix === undefined) return family !== 0 || HOST_NAME.test(entry);
  const bits = Number(prefix);
  return rest.length === 0 && family !== 0 && /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/** Comma-separated host names, addresses and CIDR networks, lower-cased. */
const hostList = z.string().transform((value, ctx) => {
  const entries = value
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
  for (const entry of entries.filter((e) => !isHostOrNetwork(e))) {
    ctx.addIssue({
      code: "custom",
      message: `${JSON.stringify(entry)} is not a host name, an IP address or a network such as 10.0.0.0/8`,
    });
  }
  return entries;
});

/**
 * Fastify's trustProxy: which proxies' X-Forwarded-For/-Proto/-Host are believed. "false" (none: the
 * socket's peer is the client), "true" (any: only when nothing but the proxy reaches the port), a
 * hop count, or addresses and networks (and proxy-addr's names loopback, linklocal, uniquelocal).
 */
const trustProxy = z
  .string()
  .default("false")
  .transform((value, ctx): boolean | number | string[] => {
    const trimmed = value.trim().toLowerCase();
    if (trimmed === "false") return false;
    if (trimmed === "true") return true;
    if (/^\d{1,3}$/.test(trimmed)) return Number(trimmed);
    const entries = trimmed
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    const named = ["loopback", "linklocal", "uniquelocal"];
    for (const entry of entries) {
      const address = isIP(entry.split("/")[0] ?? "") !== 0 && isHostOrNetwork(entry);
      if (!address && !named.includes(entry)) {
        ctx.addIssue({
          code: "custom",
          message: `${JSON.stringify(entry)} is not true, false, a hop count, an IP address, a network such as 10.0.0.0/8, or loopback/linklocal/uniquelocal`,
        });
      }
    }
    return entries;
  });

/** Comma-separated ISO 4217 codes, upper-cased, each once. */
const currencyList = z.string().transform((value, ctx) => {
  const codes = [...new Set(value.split(",").map((code) => code.trim().toUpperCase()))].filter(Boolean);
  for (const code of codes.filter((c) => !isCurrency(c))) {
    ctx.addIssue({ code: "custom", message: `${JSON.stringify(code)} is not an ISO 4217 currency code` });
  }
  if (codes.length === 0) ctx.addIssue({ code: "custom", message: "expected at least one code, e.g. QAR" });
  return codes;
});

const flag = (fallback: "true" | "false") =>
  z
    .enum(["true", "false"], { error: "expected true or false" })
    .default(fallback)
    .transform((value) => value === "true");

/** smtp://user:pass@host:port or smtps://… (implicit TLS), as nodemailer takes it. */
const smtpUrl = z.url({ protocol: /^smtps?$/, error: "expected smtp://host:port or smtps://host:port" });

/**
 * Comma-separated message kinds, or "all" (webhook-only mode). Which names are kinds is the
 * domain's to say: src/app/settings.ts checks them.
 */
const nameList = z
  .string()
  .transform((value) => [...new Set(value.split(",").map((entry) => entry.trim()))].filter(Boolean));

/** A percentage with at most two decimals ("15", "12.5"), as whole basis points. */
const percentBp = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, "expected a percentage such as 15 or 12.5")
  .transform((value) => {
    const [whole = "0", fraction = ""] = value.split(".");
    return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  })
  .refine((bp) => bp <= 10_000, "at most 100");

/** Quiet hours as HH-HH in the customer's time zone ("21-8"): messages wait until the end. */
const quietHours = z
  .string()
  .regex(/^([01]?\d|2[0-3])-([01]?\d|2[0-3])$/, "expected start-end hours such as 21-8")
  .transform((value) => {
    const [start, end] = value.split("-").map(Number) as [number, number];
    return { start, end };
  })
  .refine(({ start, end }) => start !== end, "start and end must differ");

/** A 256-bit key written as 64 hex characters or as base64 of 32 bytes. */
const encryptionKey = z.string().refine((v) => decodeKey(v) !== undefined, {
  message: "expected 32 bytes as 64 hex characters or base64",
});

export function decodeKey(value: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, "hex");
  if (/^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(value)) {
    const bytes = Buffer.from(value, "base64");
    if (bytes.length === 32) return bytes;
  }
  return undefined;
}

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  GATEWAY_BASE_URL: optionalUrl,
  GATEWAY_LEGACY_URL: optionalUrl,
  GATEWAY_API_KEY: z.string().regex(GUID, "expected the merchant API key, a GUID").optional(),
  GATEWAY_ACCESS_TOKEN: z.string().min(1).optional(),
  GATEWAY_AUTHORIZE_PATH: z.string().startsWith("/").default("/v1/Authorization/Authorize"),
  GATEWAY_LEGACY_ENCODING: z.enum(["form", "json"]).default("form"),
  GATEWAY_TIMEOUT_MS: int(100, 300_000).default(15_000),
  // The currencies the merchant account takes. The gateway offers no operation that lists them (it
  // only refuses another: -3/-20 on AddTransaction, Bad Request on v1), so they are configured, and
  // plans in any other are refused at creation. QAR is the gateway's default currency.
  GATEWAY_CURRENCIES: currencyList.default(["QAR"]),
  PUBLIC_URL: optionalUrl,
  PORT: int(0, 65_535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  TOKEN_ENCRYPTION_KEY: encryptionKey.optional(),
  TOKEN_ENCRYPTION_KEY_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/)
    .default("k1"),
  TOKEN_ENCRYPTION_OLD_KEYS: z
    .string()
    .regex(/^([A-Za-z0-9_-]{1,32}:[^,]+)(,[A-Za-z0-9_-]{1,32}:[^,]+)*$/, "expected kid:key[,kid:key…]")
    .optional(),
  BILLING_CLOCK: z.enum(["system", "controllable"]).default("system"),
  BILLING_TICK_SECONDS: int(1, 86_400).default(60),
  // Where a process that runs the scheduler beside its HTTP server or workers runs the tick
  // (src/runtime/tick-thread.ts): auto in a worker thread of its own, off inline on the main thread.
  TICK_THREAD: z.enum(["auto", "off"]).default("auto"),
  BILLING_TIMEZONE: z.string().default("Asia/Qatar"),
  OPS_CACHE_SECONDS: int(0, 3600).default(30),
  OPS_SESSION_HOURS: int(1, 720).default(12),
  // The customer portal (src/portal): how long a magic link opens, how long its session lasts (both
  // on the billing clock), and whether customers may change plan there.
  PORTAL_LINK_MINUTES: int(1, 7 * 24 * 60).default(60),
  PORTAL_SESSION_MINUTES: int(1, 24 * 60).default(30),
  PORTAL_PLAN_CHANGES: z
    .enum(["true", "false"], { error: "expected true or false" })
    .default("false")
    .transform((value) => value === "true"),
  // Whether customers may change their seats (quantity) there, on plans priced by quantity.
  PORTAL_SEAT_CHANGES: z
    .enum(["true", "false"], { error: "expected true or false" })
    .default("false")
    .transform((value) => value === "true"),
  // Collection by payment link (src/payment-links): days to pay after the last reminder before the
  // dunning policy's terminal action, and how long an opened checkout is handed out again.
  PAYMENT_LINK_GRACE_DAYS: int(0, 60).default(2),
  PAYMENT_LINK_CHECKOUT_MINUTES: int(1, 24 * 60).default(30),
  // Customer messages (src/messages, docs/customer-messages.md): sent over SMTP when SMTP_URL is
  // set, else rendered and kept for the /ops mailbox and `billing messages`.
  SMTP_URL: smtpUrl.optional(),
  MAIL_FROM: z.string().min(3).default("billing@localhost"),
  MAIL_REPLY_TO: z.email().optional(),
  MESSAGES_DISABLED: nameList.default([]),
  MESSAGE_TEMPLATES_DIR: z.string().min(1).optional(),
  MESSAGE_QUIET_HOURS: quietHours.optional(),
  MESSAGE_MAX_ATTEMPTS: int(1, 50).default(8),
  // Notices before money moves: days before a renewal (0: none, except a trial's conversion, which
  // is always announced) and before a trial ends.
  RENEWAL_NOTICE_DAYS: int(0, 60).default(7),
  TRIAL_ENDING_NOTICE_DAYS: int(1, 60).default(3),
  // Who the customer is dealing with, on messages, receipts and credit notes.
  MERCHANT_NAME: z.string().min(1).max(200).default("Billing"),
  MERCHANT_LOGO_URL: z.url({ protocol: /^https?$/ }).optional(),
  MERCHANT_ADDRESS: z.string().min(1).max(500).optional(),
  MERCHANT_TAX_ID: z.string().min(1).max(50).optional(),
  MERCHANT_SUPPORT_EMAIL: z.email().optional(),
  // Tax included in prices, printed on receipts (none by default: Qatar has no VAT in force).
  TAX_RATE_PERCENT: percentBp.default(0),
  TAX_LABEL: z.string().min(1).max(40).default("VAT"),
  // Receipts and credit notes in Arabic over English, whatever the customer's language.
  RECEIPT_BILINGUAL: flag("false"),
  // Also record each paid charge as a paid v1 invoice in the merchant's gateway account.
  GATEWAY_RECORD_PAID_INVOICES: flag("false"),
  // Entitlements (docs/entitlements.md): days a past_due subscription keeps its features after its
  // charge first failed, and how long an answer is kept in the process (0: always read afresh).
  ENTITLEMENTS_PAST_DUE_GRACE_DAYS: int(0, 365).default(7),
  ENTITLEMENTS_CACHE_SECONDS: int(0, 86_400).default(30),
  // Usage metering (src/usage, docs/usage.md): hours after a period's end during which late usage
  // events still land in it; past them the period is closed to usage.
  USAGE_GRACE_HOURS: int(0, 24 * 31).default(24),
  BILLING_BATCH_SIZE: int(1, 10_000).default(500),
  DUNNING_RETRY_DAYS: csvDays.default([1, 3, 5, 7]),
  DUNNING_TERMINAL_ACTION: z.enum(["unpaid", "cancel"]).default("unpaid"),
  // How a plan change is billed when the request does not say (billing/proration.ts).
  PRORATION_BEHAVIOR: z.enum(["immediate_prorate", "at_period_end", "none"]).default("immediate_prorate"),
  // Charging (src/charging): jobs carry batches of charges; calls run concurrently per process.
  CHARGE_CONCURRENCY: int(1, 1000).default(8),
  CHARGE_BATCH_SIZE: int(1, 1000).default(200),
  CHARGE_MAX_IN_FLIGHT: int(1, 10_000).default(256),
  CHARGE_RATE_PER_SECOND: int(1, 100_000).default(5_000),
  CHARGE_FLUSH_MS: int(0, 10_000).default(50),
  // The merchant account's contract with the gateway, for the whole deployment (every worker
  // process on every machine shares it through Redis: charging/shared-limiter.ts). Unset: none.
  GATEWAY_RATE_PER_SECOND: int(1, 100_000).optional(),
  GATEWAY_MAX_IN_FLIGHT: int(1, 100_000).optional(),
  // The sliding window the shared rate is kept over: a second plus a margin for calls on their way.
  GATEWAY_RATE_WINDOW_MS: int(1_000, 10_000).default(1_100),
  CHARGE_REDISPATCH_AFTER_SECONDS: int(1, 86_400).default(600),
  RECONCILE_MAX_TRIES: int(1, 100).default(5),
  // The gateway circuit breaker (src/breaker): systemic failure stops collection; 0 turns a signal off.
  BREAKER_WINDOW_SECONDS: int(10, 86_400).default(300),
  BREAKER_TOKEN_REFUSALS: int(0, 1_000_000).default(10),
  BREAKER_NOT_FOUND: int(0, 1_000_000).default(10),
  BREAKER_NOT_FOUND_SHARE: z.coerce.number().min(0).max(1).default(0.9),
  BREAKER_AUTH_REFUSALS: int(0, 1_000_000).default(3),
  // Attempts whose CheckStatus failed (error, no reply, malformed), counted when they are at least as
  // many as the window's status checks that answered.
  BREAKER_STATUS_CHECK_FAILURES: int(0, 1_000_000).default(10),
  // A card's first -7 is asked about again this long after (billing clock) before it is retired; 0: at once.
  TOKEN_REFUSAL_CONFIRM_SECONDS: int(0, 86_400).default(300),
  // Enrolments still pending this long are settled from CheckStatus or expired (src/enrollment).
  ENROLLMENT_PENDING_HOURS: int(1, 24 * 30).default(2),
  // Late payments (src/late-payments): attempts closed as "not found" are asked about again.
  LATE_PAYMENT_WATCH_HOURS: int(0, 24 * 90).default(168),
  LATE_PAYMENT_FIRST_CHECK_SECONDS: int(1, 86_400).default(60),
  LATE_PAYMENT_MAX_CHECK_INTERVAL_SECONDS: int(1, 7 * 86_400).default(21_600),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  GATEWAY_SIM_PORT: int(0, 65_535).default(4010),
  GATEWAY_SIM_API_KEY: z.string().regex(GUID, "expected a GUID").optional(),
  // Queues (src/queue): BullMQ on Redis when REDIS_URL is set, else on DATABASE_URL's Postgres.
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "expected lower-case letters, digits and _")
    .default("bullmq"),
  QUEUE_ATTEMPTS: int(1, 100).default(8),
  QUEUE_BACKOFF_MS: int(10, 3_600_000).default(5_000),
  QUEUE_BACKOFF_JITTER: z.coerce.number().min(0).max(1).default(0.5),
  SHUTDOWN_TIMEOUT_MS: int(1_000, 600_000).default(30_000),
  // Self-healing (src/runtime/README.md): a worker process whose database or Redis stays unreachable
  // for longer than this exits 1 so its supervisor restarts it; shorter drops are waited out.
  WORKER_CONNECTION_GRACE_MS: int(1_000, 3_600_000).default(60_000),
  EMBEDDED_POSTGRES_DIR: z.string().min(1).default(".data/postgres"),
  EMBEDDED_POSTGRES_PORT: int(1, 65_535).optional(),
  // Bootstrap (src/app): where BILLING_CLOCK=controllable starts when the database holds no clock
  // yet, and where a non-production process keeps the token key it generates when none is given.
  BILLING_CLOCK_START: z.iso.datetime({ offset: true }).optional(),
  TOKEN_DEV_KEY_FILE: z.string().min(1).default(".data/token-key"),
  // Webhooks (src/webhooks): hosts and networks endpoints may be at although loopback, private,
  // link-local or otherwise internal (refused by default, see address-policy.ts). For local
  // development only, e.g. "localhost,127.0.0.1,::1" or "10.1.0.0/16".
  WEBHOOK_ALLOWED_HOSTS: hostList.default([]),
  // Metrics (README "Metrics"): with a token set, /metrics wants `Authorization: Bearer <token>`;
  // a process without the HTTP server (a worker) serves its own /metrics on METRICS_PORT when set.
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,}$/, "expected at least 16 printable characters, no spaces")
    .optional(),
  METRICS_PORT: int(1, 65_535).optional(),
  // Behind a TLS-terminating proxy (README "Behind a proxy"): the proxies trusted for X-Forwarded-*,
  // so request.ip is the client's (login throttle, audit lines) and request.protocol is https (the
  // ops and portal session cookies are then Secure). Off by default: the socket's peer is the client.
  TRUST_PROXY: trustProxy,
  // Guessing of secrets at the doors that take one (src/http/login-throttle.ts): ops logins with a
  // wrong API key and portal links that name no link, counted per client address. This many
  // failures within the window lock the address out for LOGIN_LOCKOUT_SECONDS; each further lockout
  // within a day lasts twice the one before, up to LOGIN_LOCKOUT_MAX_SECONDS.
  LOGIN_FAILURE_LIMIT: int(1, 10_000).default(10),
  LOGIN_FAILURE_WINDOW_SECONDS: int(1, 86_400).default(60),
  LOGIN_LOCKOUT_SECONDS: int(1, 86_400).default(60),
  LOGIN_LOCKOUT_MAX_SECONDS: int(1, 7 * 86_400).default(3600),
  // Requests one API key may make to /v1 within the window (src/api/rate-limit.ts); 0: no limit.
  API_RATE_LIMIT: int(0, 10_000_000).default(6000),
  API_RATE_WINDOW_SECONDS: int(1, 86_400).default(60),
  // Load shedding (src/http/load-shedding.ts, in-flight-limit.ts): past any threshold a request
  // (but liveness) is answered 503 with Retry-After at once, before it costs anything; 0 turns a
  // threshold off. The heap's is in MiB, 90% of V8's heap limit when unset; then requests in
  // progress at once in one process, and the quickest answer of a second past which a queue stands.
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: int(0, 60_000).default(1000),
  LOAD_SHED_MAX_HEAP_MB: int(0, 1_000_000).optional(),
  LOAD_SHED_MAX_IN_FLIGHT: int(0, 1_000_000).default(256),
  LOAD_SHED_QUEUE_TARGET_MS: int(0, 600_000).default(1000),
  LOAD_SHED_RETRY_AFTER_SECONDS: int(1, 3600).default(5),
});

export type Config = z.output<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      `invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join("\n")}\nSee the README's configuration table.`,
    );
    this.name = "ConfigError";
  }
}

/** Parses the environment; throws one ConfigError listing every bad or missing variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "(environment)"),
        message: issue.message,
      })),
    );
  }
  return parsed.data;
}
