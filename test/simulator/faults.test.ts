import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Sim, waitFor } from "./harness.js";

/** Simulator-only: faults by operation, deterministic with the seed. */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const addFault = (spec: Record<string, unknown>) => sim.post<{ id: number }>("/_sim/faults", spec);

describe("/_sim/faults", () => {
  it("registers a fault and answers it with its defaults", async () => {
    const response = await addFault({ operation: "GetnewPayment", kind: "error5xx", times: 2 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      operation: "GetnewPayment",
      kind: "error5xx",
      times: 2,
      probability: 1,
      latency_ms: 1000,
      status: 503,
      delay_ms: 1000,
      hits: 0,
    });
    expect((await sim.get<{ faults: unknown[] }>("/_sim/faults")).body.faults).toHaveLength(1);
  });

  it("refuses unknown operations and kinds", async () => {
    expect((await addFault({ operation: "Pay", kind: "hang" })).status).toBe(400);
    expect((await addFault({ operation: "checkout", kind: "explode" })).status).toBe(400);
    expect((await addFault({ operation: "checkout", kind: "hang", probability: 2 })).status).toBe(400);
  });

  it("DELETE /_sim/faults removes all; DELETE /_sim/faults/:id removes one; reset removes all", async () => {
    const first = await addFault({ operation: "CheckStatus", kind: "error5xx" });
    await addFault({ operation: "Refund", kind: "error5xx" });
    expect((await sim.fetch(`/_sim/faults/${first.body.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await sim.fetch(`/_sim/faults/${first.body.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await sim.get<{ faults: unknown[] }>("/_sim/faults")).body.faults).toHaveLength(1);
    await sim.fetch("/_sim/faults", { method: "DELETE" });
    expect((await sim.get<{ faults: unknown[] }>("/_sim/faults")).body.faults).toEqual([]);
    await addFault({ operation: "Refund", kind: "error5xx" });
    await sim.reset();
    expect((await sim.get<{ faults: unknown[] }>("/_sim/faults")).body.faults).toEqual([]);
  });
});

describe("kinds", () => {
  it("error5xx answers 5xx without applying, `times` times", async () => {
    const { token } = await sim.enroll({ kind: "autosave" });
    await addFault({ operation: "GetnewPayment", kind: "error5xx", times: 1, status: 502 });
    const failed = await sim.legacy("GetnewPayment", { cardToken: token, orderId: "r1", amount: "5" });
    expect(failed.status).toBe(502);
    expect((await sim.legacy("CheckStatus", { orderId: "r1" })).body).toEqual({ result: 0 });
    const retried = await sim.legacy("GetnewPayment", { cardToken: token, orderId: "r1", amount: "5" });
    expect(retried.body.result).toBe(1);
  });

  it("malformed applies the operation and answers invalid JSON", async () => {
    await addFault({ operation: "AddTransaction", kind: "malformed", times: 1 });
    const response = await sim.fetch("/v3/AddTransaction", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: sim.apiKey, orderId: "m", amount: "1", customerEmail: "a@b.qa" }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(text.startsWith('{"result":')).toBe(true);
    expect((await sim.ledger()).checkouts).toHaveLength(1);
  });

  it("apply_then_drop charges and records, then destroys the socket without answering", async () => {
    const { token } = await sim.enroll({ kind: "autosave" });
    await addFault({ operation: "GetnewPayment", kind: "apply_then_drop", times: 1 });
    await expect(
      sim.legacy("GetnewPayment", { cardToken: token, orderId: "lost", amount: "9" }),
    ).rejects.toThrow();
    const status = await sim.legacy("CheckStatus", { orderId: "lost" });
    expect(status.body.payment).toMatchObject({ paymentstate: "SUCCESS", amount: "9.00" });
  });

  it("apply_then_drop on a refund records the refund", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "r" }));
    await addFault({ operation: "Refund", kind: "apply_then_drop" });
    await expect(sim.legacy("Refund", { orderId: "r" })).rejects.toThrow();
    expect((await sim.ledger()).refunds).toHaveLength(1);
  });

  it("bare_decline_applied charges and records, then answers a bare {result: 0}", async () => {
    const { token } = await sim.enroll({ kind: "autosave" });
    await addFault({ operation: "GetnewPayment", kind: "bare_decline_applied", times: 1 });
    const reply = await sim.legacy("GetnewPayment", { cardToken: token, orderId: "bare", amount: "9" });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ result: 0 });
    const status = await sim.legacy("CheckStatus", { orderId: "bare" });
    expect(status.body.payment).toMatchObject({ paymentstate: "SUCCESS", amount: "9.00" });
    // Used up: the next collection answers as documented.
    const next = await sim.legacy("GetnewPayment", { cardToken: token, orderId: "next", amount: "9" });
    expect(next.body).toMatchObject({ result: 1, transactionId: expect.any(String) });
  });

  it("bare_decline_applied answers a card's real decline bare too, and passes refusals through", async () => {
    const { token } = await sim.enroll({ kind: "autosave", card: "4000000000000077" });
    await addFault({ operation: "GetnewPayment", kind: "bare_decline_applied" });
    for (const orderId of ["a", "b", "c"]) {
      const reply = await sim.legacy("GetnewPayment", { cardToken: token, orderId, amount: "9" });
      expect(reply.body).toEqual({ result: 0 });
    }
    expect((await sim.legacy("CheckStatus", { orderId: "c" })).body.payment).toMatchObject({
      paymentstate: "FAILURE",
      description: "Insufficient funds",
    });
    // Refused before processing (-7): nothing was applied, so nothing is disguised.
    const refused = await sim.legacy("GetnewPayment", {
      cardToken: "no-such-token",
      orderId: "d",
      amount: "9",
    });
    expect(refused.body).toEqual({ result: -7 });
  });

  it("bare_decline_applied is only for GetnewPayment", async () => {
    const refused = await addFault({ operation: "CheckStatus", kind: "bare_decline_applied" });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("GetnewPayment");
  });

  it("hang never answers and applies nothing; the client gives up", async () => {
    await addFault({ operation: "checkout", kind: "hang" });
    const request = sim.fetch("/v1/payments/checkout", {
      method: "POST",
      headers: { api_key: sim.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ amount: "1", order_id: "h", client: { email: "a@b.qa" } }),
      signal: AbortSignal.timeout(200),
    });
    await expect(request).rejects.toThrow(/aborted|timeout/i);
    expect((await sim.ledger()).checkouts).toEqual([]);
  });

  it("hang does not block closing the simulator", async () => {
    const other = await Sim.start();
    await other.post("/_sim/faults", { operation: "CheckStatus", kind: "hang" });
    const pending = other.legacy("CheckStatus", { orderId: "o" });
    // The request has reached the server once the fault has hit it.
    await waitFor(async () => {
      const { faults } = (await other.get<{ faults: { hits: number }[] }>("/_sim/faults")).body;
      return faults[0]?.hits === 1 ? true : undefined;
    });
    await other.close();
    await expect(pending).rejects.toThrow();
  });

  it("latency delays the reply by latency_ms, then applies", async () => {
    await addFault({ operation: "Authorize", kind: "latency", latency_ms: 250, times: 1 });
    const started = performance.now();
    const response = await sim.v1("/v1/Authorization/Authorize", {});
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect(response.body.success).toBe(true);
  });

  it("v1 operations answer 5xx with the v1 error body", async () => {
    await addFault({ operation: "checkout", kind: "error5xx" });
    const response = await sim.v1("/v1/payments/checkout", {
      amount: "1",
      order_id: "o",
      client: { email: "a@b.qa" },
    });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      status: "error",
      error: { error_code: "503", description: "Service Unavailable (simulated fault)" },
    });
  });

  it("targets only its operation: refund_v1, invoices and products are separate names", async () => {
    await addFault({ operation: "products", kind: "error5xx" });
    await addFault({ operation: "refund_v1", kind: "error5xx" });
    expect((await sim.v1("/v1/Authorization/Authorize", {})).status).toBe(200);
    const bearer = (await sim.v1("/v1/Authorization/Authorize", {})).body.bearer_token!;
    expect((await sim.get("/v1/products", { authorization: `Bearer ${bearer}` })).status).toBe(503);
    expect((await sim.v1("/v1/payments/refund", { transaction_id: "1", order_id: "o" })).status).toBe(503);
    const invoice = await sim.post(
      "/v1/invoices",
      { amount: "1", description: "d" },
      { authorization: `Bearer ${bearer}` },
    );
    expect(invoice.status).toBe(201);
  });
});

describe("probability", () => {
  async function pattern(seed: number): Promise<number[]> {
    const other = await Sim.start({ seed });
    try {
      await other.post("/_sim/faults", { operation: "CheckStatus", kind: "error5xx", probability: 0.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++)
        statuses.push((await other.legacy("CheckStatus", { orderId: "o" })).status);
      return statuses;
    } finally {
      await other.close();
    }
  }

  it("is drawn from the seed: the same seed hits the same requests", async () => {
    const first = await pattern(7);
    expect(await pattern(7)).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
  });
});
