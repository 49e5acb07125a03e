import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GatewayDeclinedError } from "../../src/gateway/index.js";
import { failure } from "./support/failure.js";
import { CARD_TOKEN, FakeGateway } from "./support/fake-gateway.js";

/**
 * The shape rule of GetnewPayment replies: the text promises `{result: 1, transactionId, authcode,
 * mode}` for a payment and `{result: 0, transactionid, description}` for a decline. Only a reply in
 * that shape is a definite answer; anything less may be a payment the gateway applied, so its
 * outcome is unknown and must be reconciled (CheckStatus) before anything else is sent.
 */
const PATH = "/legacy/v3/GetnewPayment";
let gateway: FakeGateway;

beforeAll(async () => {
  gateway = await FakeGateway.start();
});
afterAll(() => gateway.close());
beforeEach(() => gateway.reset());

const charge = () => gateway.client().legacy.getNewPayment({ cardToken: CARD_TOKEN, orderId: "chg_1_1" });

describe("GetnewPayment decline replies", () => {
  it.each<[string, Record<string, unknown>]>([
    ["a bare result 0", { result: 0 }],
    ["a bare result 0 as text", { result: "0" }],
    ["no transactionid", { result: 0, description: "Insufficient funds" }],
    ["no description", { result: 0, transactionid: "T-9" }],
    ["a blank transactionid", { result: 0, transactionid: " ", description: "Insufficient funds" }],
    ["a null transactionid", { result: 0, transactionid: null, description: "Insufficient funds" }],
    ["an empty description", { result: 0, transactionid: "T-9", description: "" }],
  ])("%s is an unknown outcome, not a decline", async (_, reply) => {
    gateway.on(PATH, { json: reply });
    const error = await failure(charge());
    expect(error).not.toBeInstanceOf(GatewayDeclinedError);
    expect(error).toMatchObject({
      operation: "legacy.getNewPayment",
      outcomeUnknown: true,
      raw: reply,
    });
    expect(error.description).toMatch(/transactionid and description/);
    // Money-moving: the client never repeats it on its own.
    expect(gateway.hits(PATH)).toHaveLength(1);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["as documented", { result: 0, transactionid: "T-9", description: "Insufficient funds" }, "T-9"],
    ["with the other casings", { result: "0", TransactionID: 77, Description: "Do not honour" }, "77"],
  ])("is a definite decline %s", async (_, reply, transactionId) => {
    gateway.on(PATH, { json: reply });
    const error = await failure(charge());
    expect(error).toBeInstanceOf(GatewayDeclinedError);
    expect(error).toMatchObject({ code: 0, transactionId, outcomeUnknown: false, retryable: false });
  });
});

describe("GetnewPayment payment replies", () => {
  // The success shape was already enforced (getNewPaymentReply); pinned here beside the decline rule.
  it.each<[string, Record<string, unknown>]>([
    ["a bare result 1", { result: 1 }],
    ["no transactionId", { result: 1, authcode: "A-1", mode: "Test" }],
    ["no authcode", { result: 1, transactionId: "T-1", mode: "Test" }],
    ["no mode", { result: 1, transactionId: "T-1", authcode: "A-1" }],
  ])("%s is an unknown outcome", async (_, reply) => {
    gateway.on(PATH, { json: reply });
    const error = await failure(charge());
    expect(error).toMatchObject({ outcomeUnknown: true, code: "bad_reply" });
  });
});
