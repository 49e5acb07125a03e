import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SIMULATED_CARDS } from "../../src/simulator/index.js";
import { Sim } from "./harness.js";

/** Simulator-only: the simulated card table and the test/live checkout rules. */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function collect(token: string, times: number): Promise<(number | string)[]> {
  const results: (number | string)[] = [];
  for (let i = 0; i < times; i++) {
    const reply = await sim.legacy("GetnewPayment", { cardToken: token, orderId: `c-${i}`, amount: "10" });
    results.push(reply.body.result === 0 ? `0:${reply.body.description}` : reply.body.result);
  }
  return results;
}

it("the table is exported and served at /_sim/cards", async () => {
  const numbers = SIMULATED_CARDS.map((card) => card.number);
  expect(numbers).toEqual(
    expect.arrayContaining(["4111111111111111", "4000000000000341", "4000000000000002"]),
  );
  expect((await sim.get<{ cards: unknown[] }>("/_sim/cards")).body.cards).toHaveLength(
    SIMULATED_CARDS.length,
  );
});

describe("collections on a card's token", () => {
  it("4111 1111 1111 1111 approves everything", async () => {
    const { token } = await sim.enroll({ kind: "autosave", card: "4111111111111111" });
    expect(await collect(token, 4)).toEqual([1, 1, 1, 1]);
  });

  it("4000 0000 0000 0341 pays its checkout, then every collection is declined (Insufficient funds)", async () => {
    const { token } = await sim.enroll({ kind: "autosave", card: "4000000000000341" });
    expect(await collect(token, 3)).toEqual(Array(3).fill("0:Insufficient funds"));
    const ledger = await sim.ledger();
    expect(ledger.payments.map((payment) => payment.status)).toEqual([
      "SUCCESS",
      "FAILURE",
      "FAILURE",
      "FAILURE",
    ]);
  });

  it("4000 0000 0000 0002 declines the first two collections, then approves", async () => {
    const { token } = await sim.enroll({ kind: "autosave", card: "4000000000000002" });
    expect(await collect(token, 4)).toEqual(["0:Do not honour", "0:Do not honour", 1, 1]);
  });

  it("4000 0000 0000 0077 approves two collections, then declines for ever", async () => {
    const { token } = await sim.enroll({ kind: "autosave", card: "4000000000000077" });
    expect(await collect(token, 4)).toEqual([1, 1, "0:Insufficient funds", "0:Insufficient funds"]);
  });

  it("counts per token: a second token of the same card starts again", async () => {
    const first = await sim.enroll({ kind: "autosave", card: "4000000000000002" });
    await collect(first.token, 2);
    const second = await sim.enroll({ kind: "autosave", card: "4000000000000002" });
    expect(await collect(second.token, 1)).toEqual(["0:Do not honour"]);
    expect(await collect(first.token, 1)).toEqual([1]);
  });

  it("4000 0000 0000 0069 expires at the end of the month after the payment", async () => {
    const { token } = await sim.enroll({ card: "4000000000000069", expiry: "12/30" });
    expect((await sim.ledger()).tokens[0]?.expires_at).toBe("2025-05-01T00:00:00.000Z");
    sim.clock.set("2025-05-01T00:00:00Z");
    expect((await sim.legacy("GetnewPayment", { cardToken: token })).body).toEqual({ result: -7 });
  });
});

describe("checkout", () => {
  it("4000 0000 0000 9995 is declined at checkout (Insufficient funds)", async () => {
    const paid = await sim.pay(await sim.addTransaction({ orderId: "d" }), {
      card_number: "4000000000009995",
    });
    expect(paid.body.status).toBe("FAILURE");
    expect((await sim.ledger()).payments[0]).toMatchObject({
      description: "Insufficient funds",
      response_code: "051",
    });
  });

  it("an unknown number that passes Luhn behaves like 4111…; one that fails Luhn fails the checkout", async () => {
    const ok = await sim.pay(await sim.addTransaction({ orderId: "a" }), {
      card_number: "4242 4242 4242 4242",
    });
    expect(ok.body.status).toBe("SUCCESS");
    const bad = await sim.pay(await sim.addTransaction({ orderId: "b" }), {
      card_number: "4242424242424241",
    });
    expect(bad.body.status).toBe("FAILURE");
    expect((await sim.ledger()).payments[1]).toMatchObject({
      description: "Invalid card number",
      response_code: "014",
    });
  });

  it("a card past its expiry month fails (Expired card)", async () => {
    const paid = await sim.pay(await sim.addTransaction(), { expiry: "02/25" });
    expect(paid.body.status).toBe("FAILURE");
    expect((await sim.ledger()).payments[0]?.description).toBe("Expired card");
  });

  it("test mode: CVV 123 succeeds, any other non-empty CVV fails", async () => {
    expect((await sim.pay(await sim.addTransaction({ orderId: "a" }), { cvv: "123" })).body.status).toBe(
      "SUCCESS",
    );
    expect((await sim.pay(await sim.addTransaction({ orderId: "b" }), { cvv: "124" })).body.status).toBe(
      "FAILURE",
    );
    expect((await sim.pay(await sim.addTransaction({ orderId: "c" }), { cvv: "x" })).body.status).toBe(
      "FAILURE",
    );
  });

  it("live mode: any 3 or 4 digit CVV, and the card decides", async () => {
    const live = await sim.createMerchant({ name: "Live", mode: "live" });
    const pay = async (orderId: string, card: Record<string, string>) => {
      const added = await sim.legacy("AddTransaction", {
        token: live,
        orderId,
        amount: "5",
        customerEmail: "a@b.qa",
      });
      return (await sim.pay(String(added.body.result), card)).body.status;
    };
    expect(await pay("a", { cvv: "987" })).toBe("SUCCESS");
    expect(await pay("b", { cvv: "9876" })).toBe("SUCCESS");
    expect(await pay("c", { cvv: "98" })).toBe("FAILURE");
    expect(await pay("d", { cvv: "123", card_number: "4000000000009995" })).toBe("FAILURE");
    const status = await sim.legacy("CheckStatus", { token: live, orderId: "a" });
    expect(status.body.payment?.mode).toBe("Live");
  });

  it("rejects a malformed form before any payment (422, the checkout stays open)", async () => {
    const url = await sim.addTransaction();
    for (const [card, field] of [
      [{ card_number: "41x1" }, "card_number"],
      [{ expiry: "13/30" }, "expiry"],
      [{ expiry: "1230" }, "expiry"],
      [{ cvv: "" }, "cvv"],
      [{ name: " " }, "name"],
    ] as const) {
      const response = await sim.pay(url, card);
      expect(response.status).toBe(422);
      expect(response.body.field).toBe(field);
    }
    expect((await sim.ledger()).payments).toEqual([]);
    expect((await sim.pay(url)).body.status).toBe("SUCCESS");
  });

  it("/_sim/pay on an unknown checkout answers 404", async () => {
    expect((await sim.pay(`${sim.url}/checkout/ffffffffffffffffffffffff`)).status).toBe(404);
  });
});
