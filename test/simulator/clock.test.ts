import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControllableClock } from "../../src/clock/index.js";
import { Sim, START } from "./harness.js";

/** Simulator-only: the simulator clock and what follows it. */
let sim: Sim;
const clock = new ControllableClock(START);
beforeAll(async () => {
  sim = await Sim.start({ clock });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe("/_sim/clock", () => {
  it("GET answers {now}", async () => {
    expect((await sim.get("/_sim/clock")).body).toEqual({ now: START });
  });

  it("POST {advance: ISO duration} moves it forward and answers the same shape", async () => {
    expect((await sim.post("/_sim/clock", { advance: "P1DT2H" })).body).toEqual({
      now: "2025-03-11T10:00:00.000Z",
    });
  });

  it("POST {set: ISO timestamp} puts it anywhere, normalised to UTC", async () => {
    expect((await sim.post("/_sim/clock", { set: "2026-01-01T03:00:00+03:00" })).body).toEqual({
      now: "2026-01-01T00:00:00.000Z",
    });
  });

  it("refuses anything else with 400", async () => {
    for (const body of [
      {},
      { advance: "1 day" },
      { set: "yesterday" },
      { advance: "P1D", set: START },
      { advance: "-P1D" },
    ]) {
      expect((await sim.post("/_sim/clock", body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("embedding", () => {
  it("uses and answers the clock it was given", () => {
    expect(sim.clock).toBe(clock);
  });

  it("moving the clock in-process is seen over HTTP", async () => {
    clock.advance("PT30M");
    expect((await sim.get("/_sim/clock")).body).toEqual({ now: "2025-03-10T08:30:00.000Z" });
  });
});

describe("what follows the clock", () => {
  it("payment dates", async () => {
    await sim.post("/_sim/clock", { set: "2025-06-01T12:34:56Z" });
    await sim.pay(await sim.addTransaction({ orderId: "d" }));
    const { body } = await sim.legacy("CheckStatus", { orderId: "d" });
    expect(body.payment?.paymentDate).toBe("2025-06-01T12:34:56Z");
    expect((await sim.ledger()).payments[0]?.created_at).toBe("2025-06-01T12:34:56.000Z");
  });

  it("settlement and refunds", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "s" }));
    await sim.post("/_sim/clock", { advance: "P1D" });
    expect((await sim.ledger()).payments[0]?.settled).toBe(true);
    expect((await sim.legacy("Refund", { orderId: "s" })).body.refundState).toBe("Processing");
  });
});
