import { describe, expect, it } from "vitest";
import { readOrderId } from "../../../src/enrollment/index.js";
import { requestParams } from "../../../src/http/request-params.js";

const ID = "3f2c7a9e-1b4d-4c8e-9a6f-2d5b8c1e7f40";

describe("readOrderId", () => {
  it.each([
    ["orderId", { orderId: ID }],
    ["orderid", { orderid: ID }],
    ["order_id", { order_id: ID }],
    ["ORDERID", { ORDERID: ID }],
    ["Order_Id", { Order_Id: ID }],
  ])("finds the order id under %s", (_key, params) => {
    expect(readOrderId(params)).toBe(ID);
  });

  it("normalises case and surrounding space", () => {
    expect(readOrderId({ orderId: ` ${ID.toUpperCase()} ` })).toBe(ID);
  });

  it("accepts the same id under several spellings", () => {
    expect(readOrderId({ orderId: ID, order_id: ID, transid: "1" })).toBe(ID);
  });

  it.each([
    ["no order id", { transid: "123", status: "SUCCESS" }],
    ["an empty order id", { orderId: "" }],
    ["an order id that is not one of our ids", { orderId: "12345" }],
    ["an injection attempt", { orderId: `${ID}' or 1=1 --` }],
    ["two different order ids", { orderId: ID, order_id: "0b6a3c1e-8d2f-4e7a-9c5b-1a2d3e4f5a6b" }],
    ["a look-alike key", { myOrderId: ID }],
  ])("refuses %s", (_case, params) => {
    expect(readOrderId(params)).toBeNull();
  });
});

describe("requestParams", () => {
  it("merges the query and a body into one flat record of strings", () => {
    expect(requestParams({ transid: "1", orderId: ID }, { status: "SUCCESS", n: 5, ok: true })).toEqual({
      transid: "1",
      orderId: ID,
      status: "SUCCESS",
      n: "5",
      ok: "true",
    });
  });

  it("keeps a value repeated identically and blanks one repeated with another value", () => {
    expect(requestParams({ orderId: [ID, ID] })).toEqual({ orderId: ID });
    expect(requestParams({ orderId: ID }, { orderId: "other" })).toEqual({ orderId: "" });
  });

  it("ignores bodies and values that are not flat", () => {
    expect(requestParams(undefined, "raw text", null, [1, 2], { nested: { orderId: ID } })).toEqual({});
  });

  it("a blanked duplicate order id makes the callback unreadable", () => {
    expect(readOrderId(requestParams({ orderId: ID }, { orderId: "forged" }))).toBeNull();
  });
});
