import { describe, expect, it } from "vitest";
import { type DeclineCheck, decideDeclineCheck, type StatusLookup } from "../../../src/charging/index.js";
import type { PaymentRecord } from "../../../src/gateway/index.js";

const payment = (state: PaymentRecord["state"], extra: Partial<PaymentRecord> = {}): StatusLookup => ({
  kind: "lookup",
  result: {
    found: true,
    payment: {
      transactionId: "100200300400",
      amount: { minor: 10_000, currency: "QAR" },
      paymentDate: "2026-01-15T09:00:00Z",
      state,
      mode: "test",
      cardToken: null,
      ...extra,
    },
  },
});
const notFound: StatusLookup = { kind: "lookup", result: { found: false } };
const failed: StatusLookup = { kind: "failed", description: "HTTP 503" };

/**
 * Before a new attempt, a decline stored without the gateway's transaction id is settled by
 * CheckStatus on its orderId: paid means no new attempt, a confirmed decline or a quiet
 * "not found" lets the attempt go, and anything CheckStatus cannot settle holds it.
 */
describe("decideDeclineCheck", () => {
  it.each<[string, StatusLookup, boolean, DeclineCheck]>([
    [
      "SUCCESS: the charge is paid by that attempt",
      payment("SUCCESS", { authCode: "A-1" }),
      true,
      { kind: "paid", transactionId: "100200300400", authCode: "A-1" },
    ],
    [
      "SUCCESS while not quiet: paid all the same",
      payment("SUCCESS"),
      false,
      { kind: "paid", transactionId: "100200300400", authCode: null },
    ],
    [
      "FAILURE: the decline is confirmed, with its transaction id",
      payment("FAILURE", { description: "Insufficient funds" }),
      false,
      { kind: "confirmed", transactionId: "100200300400" },
    ],
    ["not found once quiet: nothing was taken", notFound, true, { kind: "not_charged" }],
    [
      "not found too soon: the gateway may still be applying it",
      notFound,
      false,
      {
        kind: "hold",
        why: "CheckStatus does not know the orderId yet; the gateway may still be applying it",
      },
    ],
    [
      "PENDING: held",
      payment("PENDING"),
      true,
      { kind: "hold", why: "the gateway reports the payment as PENDING" },
    ],
    ["CheckStatus failed: held", failed, true, { kind: "hold", why: "CheckStatus failed: HTTP 503" }],
  ])("%s", (_, lookup, quiet, expected) => {
    expect(decideDeclineCheck({ lookup, quiet })).toEqual(expected);
  });
});
