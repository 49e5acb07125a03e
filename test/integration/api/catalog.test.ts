import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHarness, createApiHarness, PLAN_BODY } from "./support.js";

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

const problemOf = (response: { headers: Record<string, unknown>; json: () => unknown }) => {
  expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  return response.json() as { code: string; status: number; errors?: { field: string; location: string }[] };
};

describe("plans", () => {
  it("creates a plan and answers it in snake_case with money as amount, minor units and currency", async () => {
    const response = await api.call("POST", "/v1/plans", {
      body: { ...PLAN_BODY, amount: "49.5", trial_days: 14, interval_count: 3 },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(String),
      name: "Gold monthly",
      amount: { amount: "49.50", amount_minor: 4950, currency: "QAR" },
      price_model: "flat",
      tiers: null,
      package_size: null,
      interval: "month",
      interval_count: 3,
      trial_days: 14,
      product_id: null,
      billing_mode: "recurring",
      collection_method: "charge_automatically",
      trial_without_card: false,
      usage_threshold: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      archived_at: null,
    });
    const fetched = await api.call("GET", `/v1/plans/${response.json().id}`);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual(response.json());
  });

  it("names every offending field of an invalid plan", async () => {
    const response = await api.call("POST", "/v1/plans", {
      body: { name: "", amount: "10", currency: "QAR", interval: "fortnight", interval_count: 1.5 },
    });
    expect(response.statusCode).toBe(400);
    const problem = problemOf(response);
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors?.map((e) => e.field).sort()).toEqual(["interval", "interval_count", "name"]);
    expect(problem.errors?.every((e) => e.location === "body")).toBe(true);
  });

  it("refuses unknown fields by name, and an amount with too many decimals", async () => {
    const unknown = problemOf(await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, trial_day: 3 } }));
    expect(unknown.errors).toEqual([{ field: "trial_day", location: "body", message: "unknown field" }]);
    const decimals = await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, amount: "10.005" } });
    expect(decimals.statusCode).toBe(400);
    expect(problemOf(decimals).errors).toEqual([
      expect.objectContaining({ field: "amount", location: "body" }),
    ]);
  });

  it("lists the amount with the other offending fields, in one 400", async () => {
    const text = problemOf(
      await api.call("POST", "/v1/plans", {
        body: { ...PLAN_BODY, name: "", amount: "x", interval: "hour" },
      }),
    );
    expect(text.errors).toEqual([
      { field: "name", location: "body", message: "name must not be empty" },
      { field: "amount", location: "body", message: 'amount "x" is not a decimal number such as "100.00"' },
      { field: "interval", location: "body", message: "interval must be one of day, week, month, year" },
    ]);
    // An amount that is a decimal, but not one the currency can hold, is listed with the rest too.
    const decimals = problemOf(
      await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, amount: "10.005", trial_days: -1 } }),
    );
    expect(decimals.errors?.map((e) => e.field).sort()).toEqual(["amount", "trial_days"]);
  });

  it("refuses an amount with spaces around it rather than trimming it", async () => {
    const response = await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, amount: " 10.00" } });
    expect(response.statusCode).toBe(400);
    expect(problemOf(response).errors).toEqual([
      {
        field: "amount",
        location: "body",
        message: 'amount " 10.00" has spaces around it; send the number alone, e.g. "100.00"',
      },
    ]);
  });

  it("refuses a currency the gateway account does not take, naming those it does", async () => {
    const before = (await api.call("GET", "/v1/plans?limit=100")).json().data.length;
    const response = await api.call("POST", "/v1/plans", {
      body: { ...PLAN_BODY, amount: "10.000", currency: "KWD" },
    });
    expect(response.statusCode).toBe(400);
    expect(problemOf(response).errors).toEqual([
      {
        field: "currency",
        location: "body",
        message: "currency KWD is not one the gateway account takes; allowed: QAR (GATEWAY_CURRENCIES)",
      },
    ]);
    expect((await api.call("GET", "/v1/plans?limit=100")).json().data).toHaveLength(before);
  });

  it("refuses a body that is not JSON, or no body at all", async () => {
    const garbage = await api.app.inject({
      method: "POST",
      url: "/v1/plans",
      headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
      payload: "{not json",
    });
    expect(garbage.statusCode).toBe(400);
    expect(problemOf(garbage).code).toBe("bad_request");
    const empty = await api.call("POST", "/v1/plans");
    expect(empty.statusCode).toBe(400);
    expect(problemOf(empty).errors?.[0]).toMatchObject({ field: "body", location: "body" });
  });

  it("lists plans a page at a time, oldest first", async () => {
    for (const name of ["P1", "P2", "P3"]) {
      expect((await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, name } })).statusCode).toBe(201);
    }
    const all = (await api.call("GET", "/v1/plans?limit=100")).json();
    const names = all.data.map((p: { name: string }) => p.name);
    expect(names.slice(-3)).toEqual(["P1", "P2", "P3"]);
    const first = (await api.call("GET", "/v1/plans?limit=2")).json();
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const next = (await api.call("GET", `/v1/plans?limit=100&starting_after=${first.data[1].id}`)).json();
    expect(next.data.map((p: { id: string }) => p.id)).toEqual(
      all.data.slice(2).map((p: { id: string }) => p.id),
    );
    expect(next.has_more).toBe(false);
  });

  it("names a bad query parameter", async () => {
    const response = await api.call("GET", "/v1/plans?limit=1000");
    expect(response.statusCode).toBe(400);
    expect(problemOf(response).errors).toEqual([
      { field: "limit", location: "query", message: "limit must be a whole number from 1 to 100" },
    ]);
    const archived = await api.call("GET", "/v1/plans?include_archived=perhaps");
    expect(problemOf(archived).errors?.[0]).toMatchObject({ field: "include_archived", location: "query" });
  });

  it("answers 404 for an unknown or malformed plan id", async () => {
    for (const id of [randomUUID(), "plan_123"]) {
      const response = await api.call("GET", `/v1/plans/${id}`);
      expect(response.statusCode).toBe(404);
      expect(problemOf(response).code).toBe("not_found");
    }
  });
});

describe("customers", () => {
  it("creates a customer (201), and answers the same one (200) for a known e-mail", async () => {
    const body = { email: " Amal@Example.QA ", name: "Amal", phone: "+974 5555 5555", language: "ar" };
    const created = await api.call("POST", "/v1/customers", { body });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(String),
      email: "amal@example.qa",
      name: "Amal",
      phone: "+97455555555",
      language: "ar",
      time_zone: null,
      message_opt_outs: [],
      created_at: expect.any(String),
    });
    const again = await api.call("POST", "/v1/customers", { body: { email: "amal@example.qa" } });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(created.json().id);
    const fetched = await api.call("GET", `/v1/customers/${created.json().id}`);
    expect(fetched.json()).toEqual(created.json());
  });

  it("names the offending fields", async () => {
    const response = await api.call("POST", "/v1/customers", {
      body: { email: "not-an-email", phone: "5555", language: "fr" },
    });
    expect(response.statusCode).toBe(400);
    expect(
      problemOf(response)
        .errors?.map((e) => e.field)
        .sort(),
    ).toEqual(["email", "language", "phone"]);
  });

  it("lists customers and 404s an unknown one", async () => {
    await api.call("POST", "/v1/customers", { body: { email: "second@example.qa" } });
    const list = (await api.call("GET", "/v1/customers?limit=1")).json();
    expect(list.data).toHaveLength(1);
    expect(list.has_more).toBe(true);
    expect((await api.call("GET", `/v1/customers/${randomUUID()}`)).statusCode).toBe(404);
  });
});
