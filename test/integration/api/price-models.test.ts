import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plans } from "../../../src/db/schema/index.js";
import { type ApiHarness, createApiHarness } from "./support.js";

/**
 * Plans with a price model through the merchant API: created, answered and read back with their
 * tiers (decimal strings, as the body takes them) or package size, stored in minor units; and the
 * bodies the model refuses, each field named.
 */

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

const BASE = { name: "Seats", currency: "QAR", interval: "month", billing_mode: "autosave" } as const;

const TIERS = [
  { up_to: 10, unit_amount: "5", flat_amount: "0" },
  { up_to: 50, unit_amount: "4.5", flat_amount: "10.00" },
  { up_to: null, unit_amount: "0" },
];

async function created(body: unknown) {
  const response = await api.call("POST", "/v1/plans", { body });
  expect(response.statusCode, response.body).toBe(201);
  const plan = response.json();
  const fetched = await api.call("GET", `/v1/plans/${plan.id}`);
  expect(fetched.json()).toEqual(plan);
  const listed = (await api.call("GET", "/v1/plans?limit=100")).json();
  expect(listed.data).toContainEqual(plan);
  return plan;
}

async function storedRow(id: string) {
  const rows = await api.h.ctx.db.select().from(plans);
  return rows.find((row) => row.id === id);
}

describe("plans with a price model", () => {
  it("creates a tiered plan: amount 0, its tiers as decimals, stored in minor units", async () => {
    const plan = await created({ ...BASE, price_model: "tiered", tiers: TIERS });
    expect(plan).toMatchObject({
      amount: { amount: "0.00", amount_minor: 0, currency: "QAR" },
      price_model: "tiered",
      tiers: [
        { up_to: 10, unit_amount: "5.00", flat_amount: "0.00" },
        { up_to: 50, unit_amount: "4.50", flat_amount: "10.00" },
        { up_to: null, unit_amount: "0.00", flat_amount: "0.00" },
      ],
      package_size: null,
      billing_mode: "autosave",
    });
    expect(await storedRow(plan.id)).toMatchObject({
      priceModel: "tiered",
      amountMinor: 0,
      packageSize: null,
      tiers: [
        { up_to: 10, unit_amount_minor: 500, flat_amount_minor: 0 },
        { up_to: 50, unit_amount_minor: 450, flat_amount_minor: 1_000 },
        { up_to: null, unit_amount_minor: 0, flat_amount_minor: 0 },
      ],
    });
  });

  it("creates a volume plan, whose shown tiers can be sent again as they are", async () => {
    const plan = await created({
      ...BASE,
      currency: "QAR",
      price_model: "volume",
      tiers: [
        { up_to: 100, unit_amount: "1.25" },
        { up_to: null, unit_amount: "0.99", flat_amount: "5" },
      ],
    });
    expect(plan).toMatchObject({
      price_model: "volume",
      tiers: [
        { up_to: 100, unit_amount: "1.25", flat_amount: "0.00" },
        { up_to: null, unit_amount: "0.99", flat_amount: "5.00" },
      ],
    });
    const again = await created({ ...BASE, name: "Copy", price_model: "volume", tiers: plan.tiers });
    expect(again.tiers).toEqual(plan.tiers);
  });

  it("creates a package plan: the amount is the price of one package", async () => {
    const plan = await created({ ...BASE, price_model: "package", amount: "15.00", package_size: 10 });
    expect(plan).toMatchObject({
      amount: { amount: "15.00", amount_minor: 1_500, currency: "QAR" },
      price_model: "package",
      tiers: null,
      package_size: 10,
    });
    expect(await storedRow(plan.id)).toMatchObject({
      priceModel: "package",
      amountMinor: 1_500,
      tiers: null,
      packageSize: 10,
    });
  });

  it("creates a per-unit plan: the amount is the price of one unit", async () => {
    const plan = await created({ ...BASE, price_model: "per_unit", amount: "2.50" });
    expect(plan).toMatchObject({
      amount: { amount: "2.50", amount_minor: 250 },
      price_model: "per_unit",
      tiers: null,
      package_size: null,
    });
  });

  it("names each bad tier field, every problem in one 400, and stores nothing", async () => {
    const before = (await api.call("GET", "/v1/plans?limit=100")).json().data.length;
    const response = await api.call("POST", "/v1/plans", {
      body: {
        ...BASE,
        price_model: "tiered",
        amount: "10",
        tiers: [
          { up_to: 10, unit_amount: "10.505" },
          { up_to: 10, unit_amount: "1" },
          { up_to: null, unit_amount: "x", flat_amount: "1" },
        ],
      },
    });
    expect(response.statusCode).toBe(400);
    const problem = response.json();
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        {
          field: "amount",
          location: "body",
          message: "amount must not be given with price_model tiered: its tiers set the price",
        },
        {
          field: "tiers.0.unit_amount",
          location: "body",
          message: 'unit_amount "10.505" has more than 2 decimal place(s) allowed for QAR',
        },
        { field: "tiers.1.up_to", location: "body", message: "up_to must be a whole number above 10" },
        {
          field: "tiers.2.unit_amount",
          location: "body",
          message: 'unit_amount "x" is not a decimal number such as "100.00"',
        },
      ]),
    );
    expect(problem.errors).toHaveLength(4);
    expect((await api.call("GET", "/v1/plans?limit=100")).json().data).toHaveLength(before);
  });

  it("refuses a model other than flat on a recurring plan, and an unknown tier field", async () => {
    const recurring = await api.call("POST", "/v1/plans", {
      body: { ...BASE, billing_mode: "recurring", price_model: "package", amount: "15", package_size: 10 },
    });
    expect(recurring.statusCode).toBe(400);
    expect(recurring.json().errors).toEqual([
      expect.objectContaining({
        field: "price_model",
        message: expect.stringContaining('needs billing_mode "autosave"'),
      }),
    ]);
    const unknown = await api.call("POST", "/v1/plans", {
      body: { ...BASE, price_model: "volume", tiers: [{ up_to: null, unit_amount: "1", unit: 3 }] },
    });
    expect(unknown.json().errors).toEqual([
      { field: "tiers.0.unit", location: "body", message: "unknown field" },
    ]);
  });

  it("describes the price fields in the OpenAPI document", async () => {
    const doc = (await api.app.inject({ url: "/openapi.json" })).json();
    const body = JSON.stringify(doc.paths["/v1/plans"].post.requestBody);
    for (const field of ["price_model", "tiers", "up_to", "unit_amount", "flat_amount", "package_size"]) {
      expect(body).toContain(field);
    }
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["Plan", "PriceTier"]));
  });
});
