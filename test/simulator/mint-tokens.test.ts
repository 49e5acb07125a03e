import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Sim } from "./harness.js";

/** Simulator-only: POST /_sim/tokens mints tokens that behave like enrolled ones. */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

interface Minted {
  tokens: {
    card_token: string;
    kind: string;
    amount: string | null;
    currency: string;
    masked_card: string;
  }[];
}

describe("minting card tokens in bulk", () => {
  it("mints recurring tokens bound to their amount, each collected by GetnewPayment and known to CheckStatus", async () => {
    const reply = await sim.post<Minted>("/_sim/tokens", { count: 3, amount: "49.00" });

    expect(reply.status).toBe(201);
    const { tokens } = reply.body;
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens.map((t) => t.card_token)).size).toBe(3);
    expect(tokens[0]).toMatchObject({
      kind: "recurring",
      amount: "49.00",
      currency: "QAR",
      masked_card: "411111******1111",
    });
    for (const [i, { card_token }] of tokens.entries()) {
      const paid = await sim.legacy("GetnewPayment", { cardToken: card_token, orderId: `m-${i}` });
      expect(paid.body.result).toBe(1);
      const status = await sim.legacy("CheckStatus", { orderId: `m-${i}` });
      expect(status.body.result).toBe(1);
    }
  });

  it("mints tokens of a declining card that decline like an enrolled one", async () => {
    const { body } = await sim.post<Minted>("/_sim/tokens", { count: 1, card_number: "4000000000000341" });
    const reply = await sim.legacy("GetnewPayment", {
      cardToken: body.tokens[0]!.card_token,
      orderId: "d-1",
    });
    expect(reply.body).toMatchObject({ result: 0, description: "Insufficient funds" });
  });

  it("refuses a count out of bounds, an unknown field and an expired card, naming the field", async () => {
    for (const [body, field] of [
      [{ count: 0 }, "count"],
      [{ count: 10_001 }, "count"],
      [{ count: 1, colour: "red" }, "colour"],
      [{ count: 1, expiry: "01/20" }, "expiry"],
    ] as const) {
      const reply = await sim.post<{ error: string }>("/_sim/tokens", body);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toContain(field);
    }
  });
});
