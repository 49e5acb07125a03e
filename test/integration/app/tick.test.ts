import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTick } from "../../../src/app/index.js";
import { webhooks } from "../../../src/runtime/roles.js";
import { lastTickRun } from "../../../src/scheduler/index.js";
import { createWebhookEndpoint } from "../../../src/webhooks/index.js";
import { RECEIVER_HOSTS } from "../../webhooks/fixtures.js";
import { WebhookReceiver } from "../../webhooks/receiver.js";
import { type EnrollmentWorld, enrollNew, follow, pay, startEnrollmentWorld } from "../enrollment/support.js";

/**
 * The scheduler's tick as the worker processes run it: billing work, then the webhook deliveries
 * that came due, delivered by the webhooks role to the merchant's endpoint, signed.
 */
describe("the scheduler tick", () => {
  let world: EnrollmentWorld;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    world = await startEnrollmentWorld();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await world?.close();
  });

  it("bills the new subscription and delivers its activation webhook", async () => {
    const { h } = world;
    // The receiver is on 127.0.0.1, which webhooks are only sent to when allow-listed.
    h.ctx.config = { ...h.ctx.config, WEBHOOK_ALLOWED_HOSTS: RECEIVER_HOSTS };
    const endpoint = await createWebhookEndpoint(h.ctx, { url: receiver.url });
    receiver.secret = endpoint.secret;
    await webhooks(h.ctx);

    const enrolment = await enrollNew(h);
    await follow((await pay(h, enrolment.checkoutUrl)).redirect_url);

    const result = await runTick(h.ctx);
    expect(result.chargesCreated).toBe(1);
    expect(result.webhooksDispatched).toBeGreaterThanOrEqual(1);

    const [delivered] = await receiver.waitForCount(1);
    expect(delivered?.verification.ok).toBe(true);
    expect(delivered?.body.type).toBe("subscription.activated");
    expect(delivered?.body.data.subscription_id).toBe(enrolment.subscriptionId);
  });

  it("records each run in tick_runs, so another process can tell a stalled tick", async () => {
    const { h } = world;
    const before = await lastTickRun(h.ctx.db.$client);
    await runTick(h.ctx);
    const after = await lastTickRun(h.ctx.db.$client);
    expect(after?.runs).toBe((before?.runs ?? 0) + 1);
    expect(after?.outcome).toBe("ok");
    expect(after?.finishedAt).not.toBeNull();
    expect(after?.durationMs).toBeGreaterThanOrEqual(0);
    expect(after?.ageSeconds).toBeLessThan(60);
  });

  it("records a failed run with its error, and throws it", async () => {
    const { h } = world;
    const { clock } = h.ctx;
    // A clock whose refresh fails stands for any step failing mid-tick.
    h.ctx.clock = Object.assign(Object.create(Object.getPrototypeOf(clock)), clock, {
      refresh: () => Promise.reject(new Error("clock store unreachable")),
    });
    try {
      await expect(runTick(h.ctx)).rejects.toThrow("clock store unreachable");
    } finally {
      h.ctx.clock = clock;
    }
    const run = await lastTickRun(h.ctx.db.$client);
    expect(run?.outcome).toBe("failed");
    expect(run?.error).toBe("clock store unreachable");
  });
});
