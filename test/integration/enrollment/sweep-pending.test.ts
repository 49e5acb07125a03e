import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "../../../src/db/schema/index.js";
import { tickAndCheck } from "../../support/tick.js";
import {
  ageEnrollment,
  type EnrollmentWorld,
  enrollmentOf,
  enrollNew,
  pay,
  startEnrollmentWorld,
  subscriptionOf,
} from "./support.js";

/**
 * Enrolments nobody reported on: no webhook is configured here and nobody follows the redirect, so
 * only the sweep can settle them. Age is Postgres's clock, moved by rewriting created_at.
 */
let world: EnrollmentWorld;

beforeAll(async () => {
  world = await startEnrollmentWorld({ webhook: false });
});
afterAll(() => world?.close());

const age = (enrollmentId: string, hours: number) => ageEnrollment(world.h, enrollmentId, hours);

describe("the sweep of pending enrolments", () => {
  it("leaves a young pending enrolment alone", async () => {
    const started = await enrollNew(world.h);
    expect(await tickAndCheck(world.h.ctx, { batchSize: 10 })).toMatchObject({ enrollmentsSwept: 0 });
    expect(await enrollmentOf(world.h, started.enrollmentId)).toMatchObject({ status: "pending" });
    await age(started.enrollmentId, 1);
    expect(await tickAndCheck(world.h.ctx, { batchSize: 10 })).toMatchObject({ enrollmentsSwept: 0 });
  });

  it("completes an enrolment whose payment no callback reported, from CheckStatus", async () => {
    const started = await enrollNew(world.h);
    await pay(world.h, started.checkoutUrl);
    await age(started.enrollmentId, 3);

    expect(await tickAndCheck(world.h.ctx, { batchSize: 10 })).toMatchObject({ enrollmentsSwept: 1 });
    expect(await enrollmentOf(world.h, started.enrollmentId)).toMatchObject({ status: "completed" });
    expect(await subscriptionOf(world.h, started.subscriptionId)).toMatchObject({ status: "active" });
  });

  it("expires an abandoned checkout with an event; the subscription can still be enrolled", async () => {
    const started = await enrollNew(world.h);
    await age(started.enrollmentId, 3);

    expect(await tickAndCheck(world.h.ctx, { batchSize: 10 })).toMatchObject({ enrollmentsSwept: 1 });
    expect(await enrollmentOf(world.h, started.enrollmentId)).toMatchObject({ status: "expired" });
    expect(await subscriptionOf(world.h, started.subscriptionId)).toMatchObject({
      status: "pending_enrollment",
    });
    const expired = await world.h.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.subscriptionId, started.subscriptionId), eq(events.type, "enrollment.expired")));
    expect(expired).toMatchObject([{ data: { enrollment_id: started.enrollmentId } }]);
    expect(await tickAndCheck(world.h.ctx, { batchSize: 10 })).toMatchObject({ enrollmentsSwept: 0 });
  });
});
