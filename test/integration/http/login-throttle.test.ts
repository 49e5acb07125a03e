import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { type RunningServer, startServer } from "../../../src/app/index.js";
import { createLogger } from "../../../src/logger/index.js";
import { createPortalLink } from "../../../src/portal/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { seedCustomer } from "../enrollment/support.js";

/**
 * The doors that take a secret, over HTTP: /ops/login (an API key) and /portal/open (a link's
 * token). Wrong secrets lock the client's address out (429 with Retry-After) after
 * LOGIN_FAILURE_LIMIT of them, for longer each time, with an audit line for each; other addresses
 * are not affected. Behind a trusted proxy (TRUST_PROXY) the address is X-Forwarded-For's and the
 * session cookies are Secure when X-Forwarded-Proto is https. A login from another site's page is
 * refused. The lockout is 1 s here: the test waits for its end by polling, never by a sleep.
 */

const LIMIT = 3;
let h: EngineHarness;
let fullKey: string;
const lines: string[] = [];
const servers: RunningServer[] = [];

beforeAll(async () => {
  h = await createEngineHarness({
    env: {
      LOGIN_FAILURE_LIMIT: String(LIMIT),
      LOGIN_FAILURE_WINDOW_SECONDS: "600",
      LOGIN_LOCKOUT_SECONDS: "1",
      LOGIN_LOCKOUT_MAX_SECONDS: "60",
      TRUST_PROXY: "loopback",
    },
  });
  fullKey = (await createApiKey(h.ctx.db, { name: "ops alice" })).key;
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await h?.close();
});

/** A server of the harness's engine with `config` changed, whose log lines go to `lines`. */
async function serve(config: Partial<EngineHarness["ctx"]["config"]> = {}): Promise<RunningServer> {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level: "info" }, sink);
  const ctx = { ...h.ctx, config: { ...h.ctx.config, ...config } };
  const server = await startServer(ctx, { logger, port: 0, host: "127.0.0.1" });
  servers.push(server);
  return server;
}

/** A client at `ip` (X-Forwarded-For, believed from loopback under TRUST_PROXY=loopback). */
function login(server: RunningServer, key: string, ip: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/ops/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip, ...headers },
    body: new URLSearchParams({ key }).toString(),
  });
}

/** Shaped like a key (so its listing prefix is logged), but no key. */
const wrongKey = () =>
  `bk_${randomBytes(30)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 40)
    .padEnd(40, "x")}`;

const logged = () =>
  lines
    .flatMap((line) => line.split("\n"))
    .filter(Boolean)
    .map((line) => JSON.parse(line));

/** Polls `attempt` until it answers `status`; there is no sleeping until a lockout ends. */
async function until(
  status: number,
  attempt: () => Promise<Response>,
  deadlineMs = 30_000,
): Promise<Response> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const response = await attempt();
    if (response.status === status || Date.now() > deadline) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each([
  ["Redis", {}, "203.0.113.1"],
  ["this process's memory", { REDIS_URL: undefined }, "203.0.113.2"],
])("ops logins, counted in %s", (_store, config, attacker) => {
  let server: RunningServer;
  const operator = "198.51.100.7";

  beforeAll(async () => {
    server = await serve(config);
  });

  it("locks an address out after LOGIN_FAILURE_LIMIT wrong keys, with 429, Retry-After and audit lines", async () => {
    const guesses = [wrongKey(), wrongKey(), wrongKey()];
    const statuses: number[] = [];
    for (const guess of guesses) {
      const response = await login(server, guess, attacker);
      statuses.push(response.status);
      if (response.status === 429) expect(response.headers.get("retry-after")).toBe("1");
    }
    expect(statuses).toEqual([401, 401, 429]);

    // Locked out: even the right key is not looked at from this address.
    const locked = await login(server, fullKey, attacker);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(locked.headers.get("set-cookie")).toBeNull();
    expect(await locked.text()).toContain("Too many failed logins from your address");

    // Another address is not.
    expect((await login(server, fullKey, operator)).status).toBe(303);

    const failures = logged().filter(
      (l) => l.msg?.startsWith("ops dashboard login refused") && l.ip === attacker,
    );
    expect(failures).toHaveLength(LIMIT);
    expect(failures.map((l) => [l.level, l.keyPrefix])).toEqual(guesses.map((g) => [40, g.slice(0, 10)]));
    const lockouts = logged().filter(
      (l) => l.door === "ops_login" && l.lockoutSeconds !== undefined && l.ip === attacker,
    );
    expect(lockouts.map((l) => [l.level, l.lockoutSeconds])).toEqual([[40, 1]]);
    for (const guess of guesses) expect(lines.join("")).not.toContain(guess);
  });

  it("lets the address in after the lockout; one more wrong key locks it out for twice as long", async () => {
    const back = await until(303, () => login(server, fullKey, attacker));
    expect(back.status).toBe(303);
    const again = await login(server, wrongKey(), attacker);
    expect(again.status).toBe(429);
    expect(again.headers.get("retry-after")).toBe("2");
  });
});

describe("login from another site, and behind a TLS proxy", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve();
  });

  it("refuses a login posted from another site's page (login CSRF)", async () => {
    const forged = await login(server, fullKey, "198.51.100.20", { origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    expect(forged.headers.get("set-cookie")).toBeNull();
    const own = await login(server, fullKey, "198.51.100.20", { origin: server.url });
    expect(own.status).toBe(303);
  });

  it("makes the ops and portal session cookies Secure when a trusted proxy says https, and only then", async () => {
    const proxied = await login(server, fullKey, "198.51.100.21", { "x-forwarded-proto": "https" });
    expect(proxied.status).toBe(303);
    expect(proxied.headers.get("set-cookie")).toMatch(/^billing_ops=[\w-]{43}; .*; Secure$/);
    const direct = await login(server, fullKey, "198.51.100.21");
    expect(direct.headers.get("set-cookie")).not.toContain("Secure");

    const customer = await seedCustomer(h);
    const link = await createPortalLink(h.ctx, { customerId: customer.id, actor: "test" });
    const opened = await fetch(`${server.url}/portal/open`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-proto": "https" },
      body: new URLSearchParams({ token: new URL(link.url).searchParams.get("token") ?? "" }).toString(),
    });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("set-cookie")).toMatch(/^billing_portal=[\w-]{43}; .*; Secure$/);

    // By default (TRUST_PROXY=false) no proxy is believed.
    const untrusting = await serve({ TRUST_PROXY: false });
    const unproxied = await login(untrusting, fullKey, "198.51.100.22", { "x-forwarded-proto": "https" });
    expect(unproxied.status).toBe(303);
    expect(unproxied.headers.get("set-cookie")).not.toContain("Secure");
  });
});

describe("portal links", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve();
  });

  const open = (token: string, ip: string) =>
    fetch(`${server.url}/portal/open?token=${encodeURIComponent(token)}`, {
      redirect: "manual",
      headers: { "x-forwarded-for": ip },
    });
  const guess = () => randomBytes(32).toString("base64url");

  it("locks out an address that tries secrets naming no link; a used link is not a guess", async () => {
    const customer = await seedCustomer(h);
    const used = await createPortalLink(h.ctx, { customerId: customer.id, actor: "test" });
    const usedToken = new URL(used.url).searchParams.get("token") ?? "";
    const post = (token: string, ip: string) =>
      fetch(`${server.url}/portal/open`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip },
        body: new URLSearchParams({ token }).toString(),
      });
    const guesser = "203.0.113.200";
    expect((await post(usedToken, guesser)).status).toBe(303);
    for (let i = 0; i < LIMIT + 2; i++) expect((await post(usedToken, guesser)).status).toBe(410);

    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await open(guess(), guesser)).status);
    expect(statuses).toEqual([403, 403, 429]);

    const live = await createPortalLink(h.ctx, { customerId: customer.id, actor: "test" });
    const liveToken = new URL(live.url).searchParams.get("token") ?? "";
    const locked = await open(liveToken, guesser);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await post(liveToken, guesser)).status).toBe(429);
    expect((await open(liveToken, "198.51.100.30")).status).toBe(200);

    const refusals = logged().filter((l) => l.msg === "refused a portal link" && l.ip === guesser);
    expect(refusals.map((l) => l.reason)).toEqual([
      ...Array(LIMIT + 2).fill("used_or_expired"),
      ...Array(LIMIT).fill("unknown"),
    ]);
    expect(
      logged().filter((l) => l.door === "portal_link" && l.lockoutSeconds === 1 && l.ip === guesser),
    ).toHaveLength(1);
  });
});
