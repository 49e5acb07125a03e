import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../../src/app/index.js";
import { applyGatewayCallback, startReEnrollment } from "../../../src/enrollment/index.js";
import { createLogger } from "../../../src/logger/index.js";
import {
  CARDS,
  type EnrollmentWorld,
  enrollmentOf,
  enrollNew,
  eventsOf,
  follow,
  ledgerOf,
  pay,
  paymentMethodsOf,
  startEnrollmentWorld,
  subscriptionOf,
  typesOf,
} from "./support.js";

let world: EnrollmentWorld;
const h = () => world.h;

beforeAll(async () => {
  world = await startEnrollmentWorld();
});
afterAll(() => world?.close());

async function enrolled(overrides: Record<string, unknown> = {}) {
  return enrollNew(h(), { plan: overrides });
}

describe("a declined checkout", () => {
  it("fails the enrollment with the gateway's description; a fresh checkout can still succeed", async () => {
    const started = await enrolled();
    const paid = await pay(h(), started.checkoutUrl, { cvv: "999" });
    expect(paid.status).toBe("FAILURE");
    expect(paid.redirect_url.startsWith(`${world.server.url}/gateway/return/failure?`)).toBe(true);

    const page = await follow(paid.redirect_url);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Your card could not be confirmed");
    const enrollment = await enrollmentOf(h(), started.enrollmentId);
    expect(enrollment).toMatchObject({ status: "failed", failureDescription: "Invalid CVV" });
    expect((await subscriptionOf(h(), started.subscriptionId)).status).toBe("pending_enrollment");
    expect(await paymentMethodsOf(h(), started.subscriptionId)).toHaveLength(0);

    const retry = await startReEnrollment(h().ctx, { subscriptionId: started.subscriptionId, actor: "test" });
    expect(retry.checkoutUrl).not.toBe(started.checkoutUrl);
    await follow((await pay(h(), retry.checkoutUrl)).redirect_url);
    expect((await subscriptionOf(h(), started.subscriptionId)).status).toBe("active");
  });

  it("fails a recurring enrollment paid with a Qatar-issued debit card", async () => {
    const started = await enrolled();
    const paid = await pay(h(), started.checkoutUrl, { card: CARDS.qatarDebit });
    expect(paid.status).toBe("FAILURE");
    const page = await follow(paid.redirect_url);
    expect(page.text).toContain("Your card could not be confirmed");
    expect(await enrollmentOf(h(), started.enrollmentId)).toMatchObject({
      status: "failed",
      failureDescription: "A debit card issued in Qatar cannot pay a recurring payment",
    });
    expect((await subscriptionOf(h(), started.subscriptionId)).status).toBe("pending_enrollment");
  });
});

describe("replays and races", () => {
  it("applies the success once however often the URL is hit, racing the webhook", async () => {
    const started = await enrolled();
    const paid = await pay(h(), started.checkoutUrl);
    const query = new URL(paid.redirect_url).search;
    const webhookUrl = `${world.server.url}/gateway/webhook${query}&status=SUCCESS`;
    // Ten browsers on the success URL and two extra webhook calls, besides the simulator's own webhook.
    const replies = await Promise.all([
      ...Array.from({ length: 10 }, () => follow(paid.redirect_url)),
      follow(webhookUrl),
      fetch(`${world.server.url}/gateway/webhook`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: query.slice(1),
      }).then(async (r) => ({ status: r.status, text: await r.text() })),
    ]);
    for (const page of replies.slice(0, 10)) {
      expect(page.status).toBe(200);
      expect(page.text).toContain("Your card is saved");
    }
    expect(replies.slice(10).map((r) => [r.status, r.text])).toEqual([
      [200, "ok"],
      [200, "ok"],
    ]);

    expect(await paymentMethodsOf(h(), started.subscriptionId)).toHaveLength(1);
    const types = typesOf(await eventsOf(h(), started.subscriptionId));
    expect(types.filter((t) => t === "enrollment.completed")).toHaveLength(1);
    expect(types.filter((t) => t === "subscription.activated")).toHaveLength(1);
    // The simulator's webhook reached us too, and was answered.
    const ledger = await ledgerOf(h());
    const webhook = ledger.webhooks.find((w) => w.order_id === started.enrollmentId);
    expect(webhook?.url.startsWith(`${world.server.url}/gateway/webhook?`)).toBe(true);
  });

  it("tells repeats apart from the first application", async () => {
    const started = await enrolled();
    const paid = await pay(h(), started.checkoutUrl);
    const params = Object.fromEntries(new URL(paid.redirect_url).searchParams);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => applyGatewayCallback(h().ctx, { source: "success_return", params })),
    );
    // The simulator's webhook may have won the race; either way at most one of ours applied it.
    const outcomes = results.map((r) => r.outcome);
    expect(outcomes.filter((o) => o === "completed").length).toBeLessThanOrEqual(1);
    expect(outcomes.every((o) => o === "completed" || o === "already_applied")).toBe(true);
    expect(results[0]).toMatchObject({
      enrollmentId: started.enrollmentId,
      subscriptionId: started.subscriptionId,
      language: "en",
      status: "completed",
    });
  });
});

describe("forged callbacks", () => {
  it("ignores a success URL for an order id we never issued", async () => {
    for (const orderId of [randomUUID(), "not-an-id", ""]) {
      const page = await follow(
        `${world.server.url}/gateway/return/success?transid=1&orderId=${orderId}&mode=Test&token=forged`,
      );
      expect(page.status).toBe(404);
      expect(page.text).toContain("We could not confirm this payment");
    }
    const hook = await follow(
      `${world.server.url}/gateway/webhook?transid=1&orderId=${randomUUID()}&status=SUCCESS`,
    );
    expect([hook.status, hook.text]).toEqual([200, "ignored"]);
    const json = await fetch(`${world.server.url}/gateway/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ transid: "1", orderId: randomUUID(), status: "SUCCESS" }),
    });
    expect([json.status, await json.text()]).toEqual([200, "ignored"]);
  });

  it("changes nothing for a success URL of an order that was never paid", async () => {
    const started = await enrolled();
    const before = await eventsOf(h(), started.subscriptionId);
    const forged = `transid=123456789012&orderId=${started.enrollmentId}&mode=Test&token=forged%2Btoken&refunded=yes`;
    const page = await follow(`${world.server.url}/gateway/return/success?${forged}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("We could not confirm this payment");
    const hook = await follow(`${world.server.url}/gateway/webhook?${forged}&status=SUCCESS`);
    expect(hook.text).toBe("ignored");

    expect((await enrollmentOf(h(), started.enrollmentId)).status).toBe("pending");
    expect((await subscriptionOf(h(), started.subscriptionId)).status).toBe("pending_enrollment");
    expect(await paymentMethodsOf(h(), started.subscriptionId)).toHaveLength(0);
    expect(await eventsOf(h(), started.subscriptionId)).toEqual(before);
    // The checkout is still good for the real payment.
    await follow((await pay(h(), started.checkoutUrl)).redirect_url);
    expect((await subscriptionOf(h(), started.subscriptionId)).status).toBe("active");
  });

  it("shows the verified outcome, not the URL's: a failure return of a paid order shows success", async () => {
    const started = await enrolled();
    const paid = await pay(h(), started.checkoutUrl);
    const query = new URL(paid.redirect_url).search;
    const page = await follow(`${world.server.url}/gateway/return/failure${query}&Failuredescription=forged`);
    expect(page.text).toContain("Your card is saved");
    expect((await enrollmentOf(h(), started.enrollmentId)).status).toBe("completed");
  });
});

describe("a verified payment that does not match the enrollment", () => {
  it("is not applied but flagged for operators once, however often it is called back", async () => {
    const started = await enrolled();
    // The gateway will report 100.00 QAR; make our record expect something else.
    await h().database.sql`update enrollments set amount_minor = 9999 where id = ${started.enrollmentId}`;
    const paid = await pay(h(), started.checkoutUrl);
    const pages = await Promise.all(Array.from({ length: 3 }, () => follow(paid.redirect_url)));
    expect(pages.every((page) => page.text.includes("We could not confirm this payment"))).toBe(true);

    const enrollment = await enrollmentOf(h(), started.enrollmentId);
    expect(enrollment.status).toBe("pending");
    expect(enrollment.operatorAttention).toContain("paid 10000 minor units, enrollment asked 9999");
    expect((await subscriptionOf(h(), started.subscriptionId)).status).toBe("pending_enrollment");
    expect(await paymentMethodsOf(h(), started.subscriptionId)).toHaveLength(0);
    const flagged = (await eventsOf(h(), started.subscriptionId)).filter(
      (e) => e.type === "enrollment.needs_attention",
    );
    expect(flagged.map((e) => e.data.reason)).toEqual(["amount_mismatch"]);
  });
});

describe("verification", () => {
  it("falls back to ValidatePayment when CheckStatus is unavailable", async () => {
    const started = await enrolled();
    // Before paying, so that the simulator's webhook meets the fault as well.
    const fault = await h().simAdmin<{ id: number }>("POST", "/_sim/faults", {
      operation: "CheckStatus",
      kind: "error5xx",
    });
    try {
      const paid = await pay(h(), started.checkoutUrl);
      const params = Object.fromEntries(new URL(paid.redirect_url).searchParams);
      const result = await applyGatewayCallback(h().ctx, { source: "success_return", params });
      expect(result.status).toBe("completed");
      const { faults } = await h().simAdmin<{ faults: { id: number; hits: number }[] }>(
        "GET",
        "/_sim/faults",
      );
      expect(faults.find((f) => f.id === fault.id)?.hits).toBeGreaterThan(0);
    } finally {
      await h().simAdmin("DELETE", `/_sim/faults/${fault.id}`);
    }
    expect((await subscriptionOf(h(), started.subscriptionId)).status).toBe("active");
  });

  it("changes nothing and asks to come back when the gateway cannot be asked", async () => {
    const started = await enrolled();
    // Before paying: the simulator's webhook is then refused the same way and applies nothing.
    const faults = await Promise.all(
      ["CheckStatus", "ValidatePayment"].map((operation) =>
        h().simAdmin<{ id: number }>("POST", "/_sim/faults", { operation, kind: "error5xx" }),
      ),
    );
    const paid = await pay(h(), started.checkoutUrl);
    try {
      const page = await follow(paid.redirect_url);
      expect(page.status).toBe(503);
      expect(page.text).toContain("We could not confirm this payment yet");
      const hook = await follow(`${world.server.url}/gateway/webhook${new URL(paid.redirect_url).search}`);
      expect([hook.status, hook.text]).toEqual([503, "unavailable"]);
      expect((await enrollmentOf(h(), started.enrollmentId)).status).toBe("pending");
    } finally {
      for (const fault of faults) await h().simAdmin("DELETE", `/_sim/faults/${fault.id}`);
    }
    expect((await follow(paid.redirect_url)).text).toContain("Your card is saved");
  });
});

describe("health", () => {
  it("answers ok with the process's uptime while it runs", async () => {
    const response = await fetch(`${world.server.url}/healthz`);
    expect([response.status, await response.json()]).toEqual([
      200,
      { status: "ok", uptime_seconds: expect.any(Number) },
    ]);
  });
});

describe("logging", () => {
  it("never writes the card token of a callback URL to the log", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: "debug" }, sink);
    const server = await startServer({ ...h().ctx, logger }, { port: 0, host: "127.0.0.1" });
    try {
      const started = await enrolled();
      const paid = await pay(h(), started.checkoutUrl);
      const ledger = await ledgerOf(h());
      const token = ledger.tokens.find(
        (t) => t.source_transaction_id === new URL(paid.redirect_url).searchParams.get("transid"),
      )!.card_token;
      const query = new URL(paid.redirect_url).search;
      await follow(`${server.url}/gateway/return/success${query}`);
      await follow(
        `${server.url}/gateway/return/success?orderId=${randomUUID()}&token=${encodeURIComponent(token)}`,
      );

      const log = lines.join("");
      expect(log).toContain('"path":"/gateway/return/success"');
      expect(log).toContain("gateway callback for an unknown order id ignored");
      expect(log).not.toContain(token);
      expect(log).not.toContain(encodeURIComponent(token));
    } finally {
      await server.close();
    }
  });
});
