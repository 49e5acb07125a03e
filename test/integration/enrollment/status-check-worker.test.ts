import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUE_NAMES, statusCheckJobId } from "../../../src/queue/index.js";
import { runBillingTick, startStatusCheckWorker } from "../../../src/scheduler/index.js";
import {
  ageEnrollment,
  type EnrollmentWorld,
  enrollmentOf,
  enrollNew,
  eventually,
  pay,
  startEnrollmentWorld,
} from "./support.js";

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

const age = (enrollmentId: string, hours: number) => ageEnrollment(world.h, enrollmentId, hours);

const checks = () => world.h.ctx.queues.queue(QUEUE_NAMES.statusChecks);
const jobState = () => checks().getJobState(statusCheckJobId("enrollments"));

/** Polls until `done` holds for what `read` returns, with a loaded machine's deadline. */
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean) =>
  eventually(async () => {
    const value = await read();
    return done(value) ? value : undefined;
  }, 20_000);

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
      );
      await until(jobState, (state) => state === "unknown");
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
    await until(jobState, (state) => state === "failed");
    await failing.close();
    expect(await jobState()).toBe("failed");

    expect(await runBillingTick(world.h.ctx)).toMatchObject({ statusChecks: ["enrollments"] });
    expect(await jobState()).toBe("waiting");
  });
});
