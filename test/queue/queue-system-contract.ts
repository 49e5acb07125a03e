import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import {
  type BillingJob,
  type BillingQueue,
  enqueueCharge,
  enqueueInvoice,
  isJobPresent,
  type QueueSystem,
  queueDepths,
} from "../../src/queue/index.js";
import { deferred, uniqueName, withDeadline } from "./support.js";

const WAIT_MS = 10_000;

async function queuedCount(queue: BillingQueue): Promise<number> {
  const counts = await queue.getJobCounts("waiting", "delayed", "active", "prioritized");
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/**
 * The behaviour the engine relies on, whichever datastore BullMQ runs on. `makeSystem` builds a
 * queue system under the given prefix; each test gets its own prefix and obliterates it afterwards.
 */
export function queueSystemContract(backend: string, makeSystem: (prefix: string) => QueueSystem): void {
  describe(`queue system on ${backend}`, () => {
    let prefix = uniqueName("t");
    const open: QueueSystem[] = [];
    const start = () => {
      const system = makeSystem(prefix);
      open.push(system);
      return system;
    };

    afterEach(async () => {
      await Promise.all(open.splice(0).map((system) => system.close()));
      // A fresh system, because a test may have closed its own.
      const cleaner = makeSystem(prefix);
      await cleaner.obliterate();
      await cleaner.close();
      prefix = uniqueName("t");
    });

    it("processes a job", async () => {
      const system = start();
      expect(system.backend).toBe(backend);
      const received = deferred<{ chargeIds: string[]; jobId: string | undefined }>();
      system.worker("charges", async ({ chargeIds }, job) => received.resolve({ chargeIds, jobId: job.id }));
      const chargeId = randomUUID();

      const jobId = await enqueueCharge(system, { chargeId }, { attempt: 1 });

      expect(jobId).toBe(`charge-${chargeId}-1`);
      expect(await withDeadline(received.promise, WAIT_MS, "the charge job")).toEqual({
        chargeIds: [chargeId],
        jobId,
      });
    });

    it("counts each queue's waiting and delayed jobs", async () => {
      const system = start();
      await enqueueCharge(system, { chargeId: randomUUID() }, { attempt: 1 });
      await enqueueCharge(system, { chargeId: randomUUID() }, { attempt: 1, delayMs: 60_000 });

      const depths = await queueDepths(system);
      expect(depths.map((d) => d.queue)).toEqual([
        "billing-tick",
        "charges",
        "invoices",
        "token-deactivation",
        "webhooks",
        "messages",
        "status-checks",
      ]);
      expect(depths.find((d) => d.queue === "charges")).toEqual({
        queue: "charges",
        waiting: 1,
        active: 0,
        delayed: 1,
        failed: 0,
      });
      expect(depths.find((d) => d.queue === "invoices")?.waiting).toBe(0);
    });

    it("refuses a bad payload at enqueue with a zod error naming the field", async () => {
      const system = start();

      const attempt = enqueueCharge(system, { chargeId: "not-a-uuid" }, { attempt: 1 });

      const error = await attempt.catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ZodError);
      expect((error as ZodError).issues.map((issue) => issue.path)).toEqual([["chargeIds", 0]]);
      expect(await queuedCount(system.queue("charges"))).toBe(0);
    });

    it("fails a bad payload at the worker as unrecoverable, without retrying", async () => {
      const system = start();
      let processed = 0;
      const failed = deferred<BillingJob | undefined>();
      const worker = system.worker("charges", async () => {
        processed += 1;
      });
      worker.on("failed", (job) => failed.resolve(job));

      // Bypasses enqueue's validation, as an older deploy or a hand-made job would.
      await system
        .queue("charges")
        .add("charge", { chargeId: "nope" }, { jobId: "bad-payload", attempts: 5 });

      const job = await withDeadline(failed.promise, WAIT_MS, "the bad job to fail");
      expect(job?.failedReason).toMatch(/chargeId/);
      expect(job?.attemptsMade).toBe(1);
      expect(await system.queue("charges").getJobState("bad-payload")).toBe("failed");
      expect(processed).toBe(0);
    });

    it("keeps one job when the same domain id is enqueued twice", async () => {
      const system = start();
      const chargeId = randomUUID();

      const first = await enqueueCharge(system, { chargeId }, { attempt: 1 });
      const second = await enqueueCharge(system, { chargeId }, { attempt: 1 });

      expect(second).toBe(first);
      expect(await queuedCount(system.queue("charges"))).toBe(1);
      expect(await isJobPresent(system.queue("charges"), first)).toBe(true);
      expect(await isJobPresent(system.queue("charges"), `charge-${chargeId}-2`)).toBe(false);
      // The next dunning attempt of the same charge is a job of its own.
      await enqueueCharge(system, { chargeId }, { attempt: 2 });
      expect(await queuedCount(system.queue("charges"))).toBe(2);
    });

    it("accepts the same id again once the job has completed", async () => {
      const system = start();
      const completions = [deferred(), deferred()];
      let count = 0;
      const worker = system.worker("invoices", async () => undefined);
      // 'completed' fires once the job is finished and, with removeOnComplete, already removed.
      worker.on("completed", () => {
        completions[count]?.resolve();
        count += 1;
      });
      const chargeId = randomUUID();

      const jobId = await enqueueInvoice(system, { chargeId });
      await withDeadline(completions[0]!.promise, WAIT_MS, "the first run");
      expect(await isJobPresent(system.queue("invoices"), jobId)).toBe(false);
      expect(await enqueueInvoice(system, { chargeId })).toBe(jobId);

      await withDeadline(completions[1]!.promise, WAIT_MS, "the second run");
      expect(count).toBe(2);
    });

    it("fires a repeatable tick from a job scheduler", async () => {
      const system = start();
      const ticks = deferred();
      let count = 0;
      system.worker("billing-tick", async () => {
        count += 1;
        if (count === 2) ticks.resolve();
      });

      await system.upsertScheduler("billing-tick", "billing-tick", { everyMs: 200 }, { data: {} });

      await withDeadline(ticks.promise, WAIT_MS, "two ticks");
      expect(count).toBeGreaterThanOrEqual(2);
    });

    it("lets an in-flight job finish when closing", async () => {
      const system = start();
      const started = deferred();
      const release = deferred();
      const completed = deferred<string | undefined>();
      const order: string[] = [];
      const worker = system.worker("webhooks", async (_payload, job) => {
        started.resolve();
        await release.promise;
        // Still talking to the datastore after close() began, as a real job writing its outcome would.
        await job.updateProgress(50);
        await job.log("outcome written");
        order.push("job finished");
        return "delivered";
      });
      worker.on("completed", (_job, result) => completed.resolve(String(result)));
      // The job is released only once close() is under way, so it finishes during the close.
      worker.on("closing", () => release.resolve());
      await system.queue("webhooks").add("webhook", { deliveryId: randomUUID() });
      await withDeadline(started.promise, WAIT_MS, "the job to start");

      await withDeadline(
        system.close().then(() => order.push("closed")),
        WAIT_MS,
        "close",
      );

      expect(order).toEqual(["job finished", "closed"]);
      expect(await withDeadline(completed.promise, WAIT_MS, "completion")).toBe("delivered");
    });
  });
}
