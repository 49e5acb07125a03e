import { describe, expect, it } from "vitest";
import { ControllableClock } from "../../../src/clock/index.js";
import { addProduct, listProducts, ProductCatalogue } from "../../../src/simulator/v1/products.js";
import { badRequestOf, NOW, testMerchant } from "./fixtures.js";

function setUp() {
  const merchant = testMerchant();
  const catalogue = new ProductCatalogue();
  const add = (body: unknown) => addProduct({ merchant, catalogue, clock: new ControllableClock(NOW) }, body);
  return { merchant, catalogue, add };
}

describe("addProduct", () => {
  it("answers 201 with the product, numbered after the samples, and lists it", () => {
    const { merchant, catalogue, add } = setUp();
    const reply = add({ name: "Saffron", sku: "SAF-1", price: 12.5 });
    expect(reply).toEqual({
      status: 201,
      body: {
        status: "SUCCESS",
        product: {
          id: 26,
          name: "Saffron",
          sku: "SAF-1",
          price: "12.50",
          image: "http://127.0.0.1/products/7/26/image.png",
          description: "",
          creation_date: "2026-11-23T10:00:00+03:00",
          currency: "QAR",
          category: [],
          qr_code: "http://127.0.0.1/products/7/26/qr.png",
          link: "http://127.0.0.1/products/7/26",
          status: "Active",
          language: "ar",
          setting: { is_public: true, is_limited: false, is_casheir: false, max_count: "0", max_order: 0 },
        },
      },
    });
    const listed = listProducts({ merchant, catalogue }, { Id: "26" }).body;
    expect(listed).toMatchObject({ total: 1, products: [(reply.body as { product: unknown }).product] });
  });

  it("keeps every field it is given", () => {
    const { add } = setUp();
    const reply = add({
      name: "Till snack",
      sku: "TILL-1",
      price: "0.250",
      currency: "kwd",
      description: "Sold at the counter",
      category: ["snacks", "cashier"],
      image: "https://cdn.example/snack.png",
      status: "offline",
      language: "en",
      creation_date: "2025-06-01",
      setting: { is_public: false, is_limited: true, is_casheir: true, max_count: "12.5", max_order: 3 },
    });
    expect((reply.body as { product: unknown }).product).toMatchObject({
      price: "0.250",
      currency: "KWD",
      description: "Sold at the counter",
      category: ["snacks", "cashier"],
      image: "https://cdn.example/snack.png",
      status: "Inactive",
      language: "en",
      creation_date: "2025-06-01T00:00:00+03:00",
      setting: { is_public: false, is_limited: true, is_casheir: true, max_count: "12.5", max_order: 3 },
    });
  });

  it.each([
    [{ sku: "X", price: 1 }, "name: is required"],
    [{ name: " ", sku: "X", price: 1 }, "name: must not be empty"],
    [{ name: "x".repeat(301), sku: "X", price: 1 }, "name: must be at most 300 characters"],
    [{ name: "A", price: 1 }, "sku: is required"],
    [{ name: "A", sku: "X" }, "price: is required"],
    [{ name: "A", sku: "X", price: "-1" }, "price: must be a non-negative decimal number"],
    [
      { name: "A", sku: "X", price: "1.234" },
      'price: amount "1.234" has more than 2 decimal place(s) allowed for QAR',
    ],
    [{ name: "A", sku: "X", price: 1, currency: "EUR" }, "currency: EUR is not supported by this account"],
    [{ name: "A", sku: "X", price: 1, status: "Active" }, "status: must be one of online, offline"],
    [{ name: "A", sku: "X", price: 1, image: "not a url" }, "image: must be an http or https URL"],
    [{ name: "A", sku: "X", price: 1, category: "gifts" }, "category: must be an array"],
    [
      { name: "A", sku: "X", price: 1, setting: { max_order: -1 } },
      "setting.max_order: must be a non-negative integer",
    ],
    [
      { name: "A", sku: "X", price: 1, setting: { max_count: "lots" } },
      "setting.max_count: must be a non-negative decimal number",
    ],
    [{ name: "A", sku: "cof-0001", price: 1 }, "sku: already exists"],
    ["product", "body: must be an object"],
  ])("refuses %j", (body, description) => {
    expect(badRequestOf(setUp().add(body))).toBe(description);
  });
});
