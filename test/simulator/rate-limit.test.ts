import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator/index.js";
import { type LegacyReply, Sim, waitFor } from "./harness.js";

/**
 * The per-merchant rate limit: a strict sliding window of one second in real time over the API
 * calls (v1 and v3) of one merchant, 429 with Retry-After beyond it, and the counters. The only
 * timing assumed is that a handful of local calls fit in one second.
 */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

interface Rate {
  api_key: string;
  rate_limit_per_second: number | null;
  accepted: number;
  refused: number;
  max_in_window: number;
}

const rate = async (apiKey = sim.apiKey) => (await sim.get<Rate>(`/_sim/merchants/${apiKey}/rate`)).body;

/** An autosave card token minted through /_sim, so no counted API call went into it. */
async function mintToken(): Promise<string> {
  const minted = await sim.post<{ tokens: { card_token: string }[] }>("/_sim/tokens", {
    count: 1,
    kind: "autosave",
  });
  return minted.body.tokens[0]!.card_token;
}

interface Answer {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

/** A JSON POST answering what the harness's replies leave out: the Retry-After header. */
async function call(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await sim.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: await response.json(),
    retryAfter: response.headers.get("retry-after"),
  };
}

const legacyCall = (operation: string, fields: Record<string, string>) =>
  call(`/v3/${operation}`, { token: sim.apiKey, ...fields });

function expectTooMany(answer: Answer) {
  expect(answer).toEqual({
    status: 429,
    retryAfter: "1",
    body: {
      status: "error",
      error: {
        error_code: "429",
        description: expect.stringMatching(
          /^Too Many Requests: more than \d+ calls in 1 second; retry in \d+ ms$/,
        ),
      },
    },
  });
}

describe("a merchant limited to 5 calls per second", () => {
  it("processes 5 of 6 simultaneous GetnewPayment calls and refuses the sixth before anything happens", async () => {
    const cardToken = await mintToken();
    await sim.configure({ rate_limit_per_second: 5 });
    const orders = ["a", "b", "c", "d", "e", "f"];
    const started = performance.now();
    const replies = await Promise.all(
      orders.map((orderId) => legacyCall("GetnewPayment", { cardToken, orderId, amount: "10.00" })),
    );
    const refused = replies.flatMap((reply, index) => (reply.status === 429 ? [index] : []));
    expect(refused).toHaveLength(1);
    const index = refused[0]!;
    expectTooMany(replies[index]!);
    for (const [other, reply] of replies.entries()) {
      if (other !== index) expect((reply.body as LegacyReply).result).toBe(1);
    }

    // Nothing of the refused call exists: no payment for its orderId, no collection on the token.
    const ledger = await sim.ledger();
    expect(ledger.payments.map((payment) => payment.order_id).sort()).toEqual(
      orders.filter((_, other) => other !== index),
    );
    expect(ledger.tokens[0]?.collections).toBe(5);
    expect(await rate()).toEqual({
      api_key: sim.apiKey,
      rate_limit_per_second: 5,
      accepted: 5,
      refused: 1,
      max_in_window: 5,
    });

    // Refused calls do not count, so polling is harmless; a call fits once the oldest of the burst
    // is a full second old, and not before.
    const retried = await waitFor(async () => {
      const reply = await legacyCall("GetnewPayment", { cardToken, orderId: "later", amount: "10.00" });
      return reply.status === 200 ? reply : undefined;
    }, 3_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
    expect((retried.body as LegacyReply).result).toBe(1);
    const after = await rate();
    expect(after.accepted).toBe(6);
    expect(after.max_in_window).toBe(5);
    expect((await sim.ledger()).payments.filter((payment) => payment.order_id === "later")).toHaveLength(1);
  });

  it("counts v1 calls (api_key and bearer) with the legacy ones, and answers both with the v1 error body", async () => {
    await sim.configure({ rate_limit_per_second: 5 });
    const bearer = (await sim.v1("/v1/Authorization/Authorize", {})).body.bearer_token;
    expect((await sim.get(`/v1/products`, { authorization: `Bearer ${bearer}` })).status).toBe(200);
    expect((await sim.legacy("CheckStatus", { orderId: "none" })).body).toEqual({ result: 0 });
    expect((await sim.legacy("CheckStatus", { orderId: "none" })).body).toEqual({ result: 0 });
    await sim.checkout({ order_id: "v1-ok" });

    expectTooMany(
      await call(
        "/v1/payments/checkout",
        { amount: "1.00", order_id: "v1-refused", client: { email: "c@example.com" } },
        { api_key: sim.apiKey },
      ),
    );
    expectTooMany(await legacyCall("CheckStatus", { orderId: "none" }));
    expect((await sim.ledger()).checkouts.map((checkout) => checkout.order_id)).toEqual(["v1-ok"]);
    expect(await rate()).toMatchObject({ accepted: 5, refused: 2, max_in_window: 5 });
  });

  it("takes no fault for a refused call", async () => {
    await sim.configure({ rate_limit_per_second: 1 });
    await sim.legacy("CheckStatus", { orderId: "x" });
    await sim.post("/_sim/faults", { operation: "CheckStatus", kind: "error5xx" });
    expectTooMany(await legacyCall("CheckStatus", { orderId: "x" }));
    expect((await sim.get<{ faults: { hits: number }[] }>("/_sim/faults")).body.faults[0]?.hits).toBe(0);
  });

  it("counts neither the hosted checkout page nor /_sim, nor calls naming no merchant", async () => {
    await sim.configure({ rate_limit_per_second: 1 });
    const url = await sim.checkout({ order_id: "page" });
    expect((await sim.fetch(new URL(url).pathname)).status).toBe(200);
    expect((await sim.pay(url)).body.status).toBe("SUCCESS");
    await sim.ledger();
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await sim.legacy("CheckStatus", { orderId: "page", token: unknown })).body).toEqual({
      result: -1,
    });
    expect((await sim.v1("/v1/payments/checkout", {}, { api_key: unknown })).status).toBe(401);
    expect(await rate()).toMatchObject({ accepted: 1, refused: 0 });
  });
});

describe("the setting", () => {
  it("is unlimited by default: many simultaneous calls, none refused", async () => {
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => sim.legacy("CheckStatus", { orderId: "none" })),
    );
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    const counters = await rate();
    expect(counters).toMatchObject({ rate_limit_per_second: null, accepted: 50, refused: 0 });
    expect(counters.max_in_window).toBeGreaterThanOrEqual(1);
    expect(counters.max_in_window).toBeLessThanOrEqual(50);
  });

  it("is set at creation, changed or cleared by PATCH, and validated", async () => {
    const key = await sim.createMerchant({ name: "Limited", rate_limit_per_second: 2 });
    expect((await sim.get(`/_sim/merchants/${key}`)).body).toMatchObject({ rate_limit_per_second: 2 });
    await sim.configure({ rate_limit_per_second: null }, key);
    expect((await sim.get(`/_sim/merchants/${key}`)).body).toMatchObject({ rate_limit_per_second: null });
    for (const bad of [0, -1, 1.5, "5"]) {
      expect((await sim.post("/_sim/merchants", { name: "x", rate_limit_per_second: bad })).status).toBe(400);
      expect((await sim.post(`/_sim/merchants/${key}/settings`, { rate_limit_per_second: bad })).status).toBe(
        400,
      );
    }
  });

  it("answers 404 for the counters of an unknown merchant", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await sim.get(`/_sim/merchants/${unknown}/rate`)).status).toBe(404);
    expect((await sim.post(`/_sim/merchants/${unknown}/rate/reset`, {})).status).toBe(404);
  });

  it("resets the counters, while the calls in the window keep limiting", async () => {
    await sim.configure({ rate_limit_per_second: 2 });
    await sim.legacy("CheckStatus", { orderId: "x" });
    await sim.legacy("CheckStatus", { orderId: "x" });
    expect((await sim.post<Rate>(`/_sim/merchants/${sim.apiKey}/rate/reset`, {})).body).toMatchObject({
      accepted: 0,
      refused: 0,
      max_in_window: 0,
    });
    expectTooMany(await legacyCall("CheckStatus", { orderId: "x" }));
    expect(await rate()).toMatchObject({ accepted: 0, refused: 1, max_in_window: 0 });
  });
});

describe("the simulator option", () => {
  it("limits merchants created without a limit, and the counters are read in-process", async () => {
    const limited = await startSimulator({ port: 0, seed: 7, rateLimitPerSecond: 3 });
    try {
      const call = (token: string) =>
        fetch(`${limited.url}/v3/CheckStatus`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token, orderId: "x" }),
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(limited.defaultApiKey)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(limited.rateCounters()).toEqual({
        rateLimitPerSecond: 3,
        accepted: 3,
        refused: 1,
        maxInWindow: 3,
      });
      limited.resetRateCounters();
      expect(limited.rateCounters()).toEqual({
        rateLimitPerSecond: 3,
        accepted: 0,
        refused: 0,
        maxInWindow: 0,
      });

      const create = (body: object) =>
        fetch(`${limited.url}/_sim/merchants`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then((response) => response.json() as Promise<{ api_key: string }>);
      const inherits = (await create({ name: "Inherits" })).api_key;
      const unlimited = (await create({ name: "Unlimited", rate_limit_per_second: null })).api_key;
      expect(limited.rateCounters(inherits).rateLimitPerSecond).toBe(3);
      expect(limited.rateCounters(unlimited).rateLimitPerSecond).toBeNull();
      expect(() => limited.rateCounters("00000000-0000-4000-8000-000000000000")).toThrow(RangeError);
    } finally {
      await limited.close();
    }
  });

  it("refuses a limit that is not a positive integer", async () => {
    await expect(startSimulator({ rateLimitPerSecond: 0 })).rejects.toThrow(RangeError);
  });
});

describe("the state file", () => {
  it("keeps the setting (not the counters); a file from before the setting loads without limits", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sim-rate-"));
    const stateFile = join(dir, "state.json");
    const restart = async () => {
      const restarted = await startSimulator({ port: 0, seed: 7, stateFile });
      const view = await fetch(`${restarted.url}/_sim/merchants/${restarted.defaultApiKey}`);
      const limit = ((await view.json()) as { rate_limit_per_second: number | null }).rate_limit_per_second;
      const counters = restarted.rateCounters();
      await restarted.close();
      return { limit, accepted: counters.accepted };
    };
    try {
      const first = await startSimulator({ port: 0, seed: 7, stateFile });
      await fetch(`${first.url}/_sim/merchants/${first.defaultApiKey}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ rate_limit_per_second: 4 }),
      });
      await fetch(`${first.url}/v3/CheckStatus`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: first.defaultApiKey, orderId: "x" }),
      });
      await first.close();
      expect(await restart()).toEqual({ limit: 4, accepted: 0 });

      const saved = JSON.parse(await readFile(stateFile, "utf8")) as {
        merchants: { merchants: Record<string, unknown>[] };
      };
      for (const merchant of saved.merchants.merchants) delete merchant.rateLimitPerSecond;
      await writeFile(stateFile, JSON.stringify(saved));
      expect(await restart()).toEqual({ limit: null, accepted: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
