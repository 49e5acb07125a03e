import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { paymentRecordReply } from "../../src/gateway/schemas/legacy.js";
import { legacyResult, normaliseKeys } from "../../src/gateway/schemas/normalise.js";
import { toDecimalString } from "../../src/money/index.js";

describe("legacyResult", () => {
  it.each([
    [1, { kind: "code", code: 1 }],
    [-7, { kind: "code", code: -7 }],
    ["1", { kind: "code", code: 1 }],
    [" -21 ", { kind: "code", code: -21 }],
    ["https://pay.example/c?id=1", { kind: "url", url: "https://pay.example/c?id=1" }],
  ])("reads %o", (input, expected) => {
    expect(legacyResult.parse(input)).toEqual(expected);
  });

  it.each([1.5, "abc", "ftp://x.example", "", null])("refuses %o", (input) => {
    expect(legacyResult.safeParse(input).success).toBe(false);
  });
});

describe("normaliseKeys", () => {
  it("lower-cases keys deeply and folds the spellings of transaction ids", () => {
    expect(
      normaliseKeys({
        Result: 1,
        transId: "T",
        RefundTrnsactionId: "R",
        Payment: { TransactionID: "P", Items: [{ AmounT: 1 }] },
      }),
    ).toEqual({
      result: 1,
      transactionid: "T",
      refundtransactionid: "R",
      payment: { transactionid: "P", items: [{ amount: 1 }] },
    });
  });

  it("keeps the first non-null value when casings collide", () => {
    expect(normaliseKeys({ transactionId: null, transactionID: "B", transactionid: "C" })).toEqual({
      transactionid: "B",
    });
  });
});

describe("payment amounts", () => {
  const record = (amount: string | number, currencyCode: string) => ({
    transactionid: "T",
    amount,
    currencycode: currencyCode,
    paymentdate: "2024-05-01",
    paymentstate: "SUCCESS",
    mode: "live",
  });

  it("converts any decimal text exactly to minor units", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom("QAR", "KWD", "JPY", "BHD", "USD"),
        (minor, currency) => {
          const parsed = paymentRecordReply.parse(record(toDecimalString(minor, currency), currency));
          expect(parsed.amount).toEqual({ minor, currency });
        },
      ),
    );
  });

  it("converts JSON numbers of realistic size exactly", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.constantFrom("QAR", "KWD", "JPY"),
        (minor, currency) => {
          const asNumber = Number(toDecimalString(minor, currency));
          expect(paymentRecordReply.parse(record(asNumber, currency)).amount).toEqual({ minor, currency });
        },
      ),
    );
  });
});
