import { describe, expect, it } from "vitest";
import { ControllableClock } from "../../../src/clock/index.js";
import type { SimMerchant, SimReply } from "../../../src/simulator/types.js";
import { addProduct, listProducts, ProductCatalogue } from "../../../src/simulator/v1/products.js";
import { badRequestOf, NOW, testMerchant } from "./fixtures.js";

type WireProduct = {
  id: number;
  name: string;
  sku: string;
  price: string;
  description: string;
  creation_date: string;
  currency: string;
  category: string[];
  status: string;
  language: string;
  setting: {
    is_public: boolean;
    is_limited: boolean;
    is_casheir: boolean;
    max_count: string;
    max_order: number;
  };
};
type ListBody = { status: string; products: WireProduct[]; total: number; page_size: number; page: number };

const listOf = (reply: SimReply): ListBody => {
  if (reply.status !== 200)
    throw new Error(`expected a 200, got ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as ListBody;
};

function setUp(merchant: SimMerchant = testMerchant()) {
  const catalogue = new ProductCatalogue();
  const list = (query: Record<string, string | undefined> = {}) =>
    listOf(listProducts({ merchant, catalogue }, query));
  const add = (body: Record<string, unknown>) =>
    addProduct({ merchant, catalogue, clock: new ControllableClock(NOW) }, body);
  return { catalogue, merchant, list, add, all: () => list({ page_size: "100" }).products };
}

/** Qatar calendar day of a wire datetime (they carry the +03:00 offset). */
const localDay = (wire: string) => wire.slice(0, 10);
const major = (price: string) => Number(price.split(".")[0]);

describe("listProducts: the sample catalogue", () => {
  it("seeds 25 products per merchant, the same ones for the same seed", () => {
    const { all } = setUp();
    const products = all();
    expect(products.map((product) => product.id)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(products).toEqual(setUp().all());
    expect(products[0]).toMatchObject({
      id: 1,
      name: "Arabic coffee 250g",
      sku: "COF-0001",
      currency: "QAR",
      category: ["coffee"],
      status: "Active",
      language: "en",
      creation_date: expect.stringMatching(/^2025-01-06T\d\d:\d\d:00\+03:00$/),
      image: "http://127.0.0.1/products/7/1/image.png",
      qr_code: "http://127.0.0.1/products/7/1/qr.png",
      link: "http://127.0.0.1/products/7/1",
    });
  });

  it("varies prices with the seed and prices in the merchant's first currency", () => {
    const prices = (seed: number) =>
      listOf(
        listProducts(
          { merchant: testMerchant(), catalogue: new ProductCatalogue(seed) },
          { page_size: "100" },
        ),
      ).products.map((product) => product.price);
    expect(prices(1)).toEqual(prices(1));
    expect(prices(2)).not.toEqual(prices(1));
    const kwd = setUp(testMerchant({ currencies: ["KWD"] })).all();
    expect(kwd.every((product) => product.currency === "KWD" && /^\d+\.\d{3}$/.test(product.price))).toBe(
      true,
    );
    const jpy = setUp(testMerchant({ currencies: ["JPY"] })).all();
    expect(jpy.every((product) => /^\d+$/.test(product.price))).toBe(true);
  });

  it("keeps each merchant's catalogue apart and clears them all", () => {
    const { catalogue, merchant, add, all } = setUp();
    expect(add({ name: "Extra", sku: "X-1", price: "1" }).status).toBe(201);
    expect(all()).toHaveLength(26);
    const other = listOf(listProducts({ merchant: testMerchant({ id: 99 }), catalogue }, {}));
    expect(other.total).toBe(25);
    catalogue.clear();
    expect(listOf(listProducts({ merchant, catalogue }, {})).total).toBe(25);
  });
});

describe("listProducts: filters", () => {
  const { list, all } = setUp();
  const products = all();
  const day = (index: number) => localDay(products[index]?.creation_date ?? "");

  const cases: [string, Record<string, string>, (product: WireProduct) => boolean][] = [
    ["q in a name, any case", { q: "COFFEE" }, (p) => /coffee/i.test(`${p.name} ${p.description} ${p.sku}`)],
    ["q in a description", { q: "twelve" }, (p) => /twelve/i.test(p.description)],
    ["q in a SKU", { q: "-0012" }, (p) => p.sku.endsWith("-0012")],
    ["q in Arabic", { q: "شاي" }, (p) => p.name.includes("شاي")],
    ["status online", { status: "online" }, (p) => p.status === "Active"],
    ["status offline", { status: "offline" }, (p) => p.status === "Inactive"],
    ["status cashier", { status: "cashier" }, (p) => p.setting.is_casheir],
    ["Id", { Id: "7" }, (p) => p.id === 7],
    ["id", { id: "8" }, (p) => p.id === 8],
    ["Id wins over id", { Id: "7", id: "8" }, (p) => p.id === 7],
    ["sku, any case", { sku: "tea-0003" }, (p) => p.sku === "TEA-0003"],
    ["is_cashier true", { is_cashier: "true" }, (p) => p.setting.is_casheir],
    ["is_cashier false", { is_cashier: "FALSE" }, (p) => !p.setting.is_casheir],
    ["is_public true", { is_public: "true" }, (p) => p.setting.is_public],
    ["is_public false", { is_public: "false" }, (p) => !p.setting.is_public],
    ["category", { category: "Gifts" }, (p) => p.category.includes("gifts")],
    ["min", { min: "100" }, (p) => Number(p.price) >= 100],
    ["max", { max: "100" }, (p) => Number(p.price) <= 100],
    ["min and max", { min: "10", max: "500" }, (p) => Number(p.price) >= 10 && Number(p.price) <= 500],
    ["from", { from: day(10) }, (p) => p.id >= 11],
    ["to", { to: day(10) }, (p) => p.id <= 11],
    ["from and to", { from: day(4), to: day(9) }, (p) => p.id >= 5 && p.id <= 10],
    ["from = to", { from: day(4), to: day(4) }, (p) => p.id === 5],
    ["from after to", { from: day(9), to: day(4) }, () => false],
    [
      "combined",
      { status: "online", category: "services", is_public: "true" },
      (p) => p.status === "Active" && p.category.includes("services") && p.setting.is_public,
    ],
    ["empty values are not filters", { q: "", status: "", page: "" }, () => true],
    ["unknown parameters are ignored", { colour: "red" }, () => true],
  ];

  it.each(cases)("%s", (_label, query, predicate) => {
    const expected = products.filter(predicate);
    const body = list({ ...query, page_size: "100" });
    expect(body.products).toEqual(expected);
    expect(body.total).toBe(expected.length);
  });

  it("has filters that both keep and drop sample products", () => {
    const unselective = ["from after to", "empty values are not filters", "unknown parameters are ignored"];
    for (const [label, , predicate] of cases.filter(([label]) => !unselective.includes(label))) {
      const kept = products.filter(predicate).length;
      expect(kept, label).toBeGreaterThan(0);
      expect(kept, label).toBeLessThan(products.length);
    }
    expect(products.some((p) => major(p.price) > 100)).toBe(true);
    expect(products.some((p) => major(p.price) < 10)).toBe(true);
  });

  it.each([
    ["status", { status: "Active" }, "status: must be one of online, offline, cashier"],
    ["Id", { Id: "abc" }, "Id: must be a positive integer"],
    ["id", { id: "0" }, "id: must be a positive integer"],
    ["is_cashier", { is_cashier: "yes" }, "is_cashier: must be true or false"],
    ["is_public", { is_public: "1" }, "is_public: must be true or false"],
    ["min", { min: "-1" }, "min: must be a non-negative integer"],
    ["max", { max: "9.5" }, "max: must be a non-negative integer"],
    ["from", { from: "2025-13-01" }, "from: must be a date written yyyy-mm-dd"],
    ["from", { from: "2025-02-30" }, "from: must be a date written yyyy-mm-dd"],
    ["to", { to: "01/02/2025" }, "to: must be a date written yyyy-mm-dd"],
    ["to", { to: "2025-02-01T00:00:00" }, "to: must be a date written yyyy-mm-dd"],
  ])("refuses a bad %s", (_field, query, description) => {
    const { catalogue, merchant } = setUp();
    expect(badRequestOf(listProducts({ merchant, catalogue }, query))).toBe(description);
  });
});

describe("listProducts: price bounds and dates at the edges", () => {
  it("treats min and max as whole currency units, both included", () => {
    const { add, list } = setUp();
    add({ name: "Edge low", sku: "EDGE-1", price: "50.00" });
    add({ name: "Edge high", sku: "EDGE-2", price: "50.01" });
    const skus = (query: Record<string, string>) => list({ q: "edge", ...query }).products.map((p) => p.sku);
    expect(skus({ max: "50" })).toEqual(["EDGE-1"]);
    expect(skus({ min: "50" })).toEqual(["EDGE-1", "EDGE-2"]);
    expect(skus({ min: "51" })).toEqual([]);
    expect(skus({ min: "50", max: "50" })).toEqual(["EDGE-1"]);
  });

  it("compares creation dates as Qatar calendar days", () => {
    const { add, list } = setUp();
    // 22:30 UTC on 31 December is 01:30 on 1 January in Doha.
    add({ name: "New year", sku: "NY-1", price: "1", creation_date: "2025-12-31T22:30:00Z" });
    const found = (query: Record<string, string>) => list({ sku: "NY-1", ...query }).total;
    expect(found({ from: "2026-01-01" })).toBe(1);
    expect(found({ to: "2026-01-01" })).toBe(1);
    expect(found({ to: "2025-12-31" })).toBe(0);
    expect(found({ from: "2026-01-02" })).toBe(0);
  });
});

describe("listProducts: pagination", () => {
  const { list } = setUp();

  it("defaults to page 1 of 10, sorted by id", () => {
    const body = list();
    expect(body).toMatchObject({ status: "SUCCESS", total: 25, page: 1, page_size: 10 });
    expect(body.products.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it.each([
    [{ page: "1", page_size: "10" }, 25, [1, 10]],
    [{ page: "3", page_size: "10" }, 25, [21, 25]],
    [{ page: "4", page_size: "10" }, 25, []],
    [{ page: "2", page_size: "7" }, 25, [8, 14]],
    [{ page: "1", page_size: "1" }, 25, [1, 1]],
    [{ page: "25", page_size: "1" }, 25, [25, 25]],
    [{ page: "1", page_size: "100" }, 25, [1, 25]],
    [{ page: "1000", page_size: "100" }, 25, []],
  ])("%j: total %i, ids %j", (query, total, span) => {
    const body = list(query);
    expect(body).toMatchObject({ total, page: Number(query.page), page_size: Number(query.page_size) });
    const [first, last] = span;
    const ids =
      first === undefined ? [] : Array.from({ length: (last ?? first) - first + 1 }, (_, i) => first + i);
    expect(body.products.map((p) => p.id)).toEqual(ids);
  });

  it("pages through the filtered products, total counting all that match", () => {
    const cashier = list({ status: "cashier", page_size: "100" }).products;
    expect(cashier.length).toBe(5);
    const body = list({ status: "cashier", page: "2", page_size: "3" });
    expect(body.total).toBe(5);
    expect(body.products).toEqual(cashier.slice(3));
  });

  it.each([
    ["page", "0", "page: must be an integer from 1 to 1000"],
    ["page", "1001", "page: must be an integer from 1 to 1000"],
    ["page", "-1", "page: must be an integer from 1 to 1000"],
    ["page", "1.5", "page: must be an integer from 1 to 1000"],
    ["page", "two", "page: must be an integer from 1 to 1000"],
    ["page_size", "0", "page_size: must be an integer from 1 to 100"],
    ["page_size", "101", "page_size: must be an integer from 1 to 100"],
    ["page_size", "ten", "page_size: must be an integer from 1 to 100"],
  ])("refuses %s=%s", (name, value, description) => {
    const { catalogue, merchant } = setUp();
    expect(badRequestOf(listProducts({ merchant, catalogue }, { [name]: value }))).toBe(description);
  });

  it("reports every bad parameter together", () => {
    const { catalogue, merchant } = setUp();
    expect(badRequestOf(listProducts({ merchant, catalogue }, { page: "0", page_size: "101" }))).toBe(
      "page: must be an integer from 1 to 1000; page_size: must be an integer from 1 to 100",
    );
  });
});
