import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUE_NAMES, statusCheckJobId } from "../../../src/queue/index.js";
import { runBillingTick, startStatusCheckWorker } from "../../../src/scheduler/index.js";
import { type EnrollmentWorld, enrollmentOf, enrollNew, pay, startEnrollmentWorld } from "./support.js";

/**
 * The tick asks the gateway nothing itself: a stale pending enrolment makes it hand the
 * enrolments' status check to its worker, one job at a time, and the worker settles it from
 * CheckStatus. A check whose retries ran out is handed out anew.
 */
let world: EnrollmentWorld;

beforeAll(async () => {
  world = await startEnrollmentWorld({ webhook: false });
});
afterAll(() => world?.close());

const age = (enrollmentId: string, hours: number) =>
  world.h.ctx.db.$client`
    update enrollments set created_at = now() - make_interval(hours => ${hours}) where id = ${enrollmentId}::uuid`;

const checks = () => world.h.ctx.queues.queue(QUEUE_NAMES.statusChecks);
const jobState = () => checks().getJobState(statusCheckJobId("enrollments"));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("status checks handed to their worker", () => {
  it("hands the check out once, and the worker settles the enrolment", async () => {
    const started = await enrollNew(world.h);
    await pay(world.h, started.checkoutUrl);
    await age(started.enrollmentId, 3);

    expect(await runBillingTick(world.h.ctx)).toMatchObject({ statusChecks: ["enrollments"] });
    expect(await runBillingTick(world.h.ctx)).toMatchObject({ statusChecks: ["enrollments"] });
    // The tick settled nothing itself, and the second hand-out found the first job waiting.
    expect(await enrollmentOf(world.h, started.enrollmentId)).toMatchObject({ status: "pending" });
    expect(await checks().getJobCounts("waiting")).toMatchObject({ waiting: 1 });

    const worker = startStatusCheckWorker(world.h.ctx);
    try {
      await until(
        () => enrollmentOf(world.h, started.enrollmentId),
        (row) => row.status === "completed",
        "the enrolment to complete",
      );
      await until(jobState, (state) => state === "unknown", "the completed job to be removed");
      expect(await runBillingTick(world.h.ctx)).toMatchObject({ statusChecks: [] });
    } finally {
      await worker.close();
    }
  });

  it("replaces a check whose retries ran out", async () => {
    const started = await enrollNew(world.h);
    await age(started.enrollmentId, 3);
    await checks().add(
      "status-check",
      { check: "enrollments" },
      {
        jobId: statusCheckJobId("enrollments"),
        attempts: 1,
      },
    );
    const failing = world.h.ctx.queues.worker(QUEUE_NAMES.statusChecks, async () => {
      throw new Error("retries ran out");
    });
    await until(jobState, (state) => state === "failed", "the job to fail");
    await failing.close();
    expect(await jobState()).toBe("failed");

    expect(await runBillingTick(world.h.ctx)).toMatchObject({ statusChecks: ["enrollments"] });
    expect(await jobState()).toBe("waiting");
  });
});
