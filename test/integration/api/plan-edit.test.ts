import { randomUUID } from "node:crypto";
import { asc, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "../../../src/db/schema/index.js";
import { type ApiHarness, createApiHarness, PLAN_BODY } from "./support.js";

/**
 * PATCH /v1/plans/:id, POST /v1/plans/:id/archive and /unarchive: what may change (name, product,
 * what new subscriptions start with), what is refused by name (the price, the interval, the billing
 * mode), the events recorded, and an archived plan refused at enrolment until it is unarchived.
 */

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

async function newPlan(body: Record<string, unknown> = {}): Promise<string> {
  const response = await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, ...body } });
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

const planEvents = (id: string) =>
  api.h.ctx.db
    .select({ type: events.type, actor: events.actor, data: events.data })
    .from(events)
    .where(like(events.type, "plan.%"))
    .orderBy(asc(events.id))
    .then((rows) => rows.filter((row) => (row.data as { plan_id?: string }).plan_id === id));

describe("PATCH /v1/plans/:id", () => {
  it("changes the fields given, answers the plan, and records each change before and after", async () => {
    const id = await newPlan({ trial_days: 14 });
    const response = await api.call("PATCH", `/v1/plans/${id}`, {
      body: {
        name: " Gold (2026) ",
        trial_days: 7,
        product_id: "prod_42",
        collection_method: "send_payment_link",
        trial_without_card: true,
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id,
      name: "Gold (2026)",
      amount: { amount: "100.00", amount_minor: 10000, currency: "QAR" },
      interval: "month",
      trial_days: 7,
      product_id: "prod_42",
      billing_mode: "recurring",
      collection_method: "send_payment_link",
      trial_without_card: true,
      archived_at: null,
    });
    expect((await api.call("GET", `/v1/plans/${id}`)).json()).toEqual(response.json());

    // The same values again, and an empty body: nothing changes, nothing more is recorded.
    expect((await api.call("PATCH", `/v1/plans/${id}`, { body: { name: "Gold (2026)" } })).json()).toEqual(
      response.json(),
    );
    expect((await api.call("PATCH", `/v1/plans/${id}`, { body: {} })).statusCode).toBe(200);
    // null clears the product.
    expect((await api.call("PATCH", `/v1/plans/${id}`, { body: { product_id: null } })).json()).toMatchObject(
      {
        product_id: null,
        name: "Gold (2026)",
      },
    );

    expect(await planEvents(id)).toEqual([
      expect.objectContaining({ type: "plan.created" }),
      {
        type: "plan.updated",
        actor: `api:${api.keyId}`,
        data: {
          plan_id: id,
          fields: ["name", "trial_days", "product_id", "collection_method", "trial_without_card"],
          from: {
            name: "Gold monthly",
            trial_days: 14,
            product_id: null,
            collection_method: "charge_automatically",
            trial_without_card: false,
          },
          to: {
            name: "Gold (2026)",
            trial_days: 7,
            product_id: "prod_42",
            collection_method: "send_payment_link",
            trial_without_card: true,
          },
        },
      },
      {
        type: "plan.updated",
        actor: `api:${api.keyId}`,
        data: {
          plan_id: id,
          fields: ["product_id"],
          from: { product_id: "prod_42" },
          to: { product_id: null },
        },
      },
    ]);
  });

  it("refuses every price field by name in one 400, with the fields it cannot change", async () => {
    const id = await newPlan();
    const response = await api.call("PATCH", `/v1/plans/${id}`, {
      body: {
        name: "",
        amount: "120.00",
        currency: "QAR",
        interval: "year",
        interval_count: 2,
        price_model: "per_unit",
        billing_mode: "autosave",
        usage_threshold: null,
        trial_day: 3,
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const fixed = (field: string) =>
      `${field} cannot change: a plan's price and interval are fixed once it is created, since its subscriptions pay them; create a plan with the new price and move subscriptions to it (change-plan)`;
    expect(response.json()).toMatchObject({ status: 400, code: "validation_failed" });
    expect(response.json().errors).toEqual([
      { field: "name", location: "body", message: "name must not be empty" },
      { field: "amount", location: "body", message: fixed("amount") },
      { field: "currency", location: "body", message: fixed("currency") },
      { field: "price_model", location: "body", message: fixed("price_model") },
      { field: "interval", location: "body", message: fixed("interval") },
      { field: "interval_count", location: "body", message: fixed("interval_count") },
      {
        field: "billing_mode",
        location: "body",
        message:
          "billing_mode cannot change: its subscriptions' cards were saved for it (a recurring token is charged the amount it was enrolled for); create a plan with the other billing_mode for new subscriptions",
      },
      {
        field: "usage_threshold",
        location: "body",
        message: "usage_threshold is set with PUT /v1/plans/{id}/usage-threshold",
      },
      { field: "trial_day", location: "body", message: "unknown field" },
    ]);
    const plan = (await api.call("GET", `/v1/plans/${id}`)).json();
    expect([plan.name, plan.amount.amount_minor, plan.interval, plan.billing_mode]).toEqual([
      "Gold monthly",
      10000,
      "month",
      "recurring",
    ]);
  });

  it("keeps a trial without card on a trial, naming the field the update sent", async () => {
    const cardless = await newPlan({ trial_days: 14, trial_without_card: true });
    const ending = await api.call("PATCH", `/v1/plans/${cardless}`, { body: { trial_days: 0 } });
    expect(ending.statusCode).toBe(400);
    expect(ending.json().errors).toEqual([
      {
        field: "trial_days",
        location: "body",
        message:
          "trial_days must be at least 1 while the plan's trial_without_card is true; send trial_without_card: false with it",
      },
    ]);
    const both = await api.call("PATCH", `/v1/plans/${cardless}`, {
      body: { trial_days: 0, trial_without_card: false },
    });
    expect(both.json()).toMatchObject({ trial_days: 0, trial_without_card: false });

    const noTrial = await newPlan();
    const asked = await api.call("PATCH", `/v1/plans/${noTrial}`, { body: { trial_without_card: true } });
    expect(asked.json().errors).toEqual([
      {
        field: "trial_without_card",
        location: "body",
        message: "trial_without_card needs trial_days of at least 1",
      },
    ]);
  });

  it("answers 404 for an unknown plan", async () => {
    const response = await api.call("PATCH", `/v1/plans/${randomUUID()}`, { body: { name: "Nobody's" } });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("not_found");
  });
});

describe("archiving a plan", () => {
  it("archives and unarchives, listing it only with include_archived, and refuses enrolment meanwhile", async () => {
    const id = await newPlan({ name: "Seasonal" });
    const customer = (
      await api.call("POST", "/v1/customers", { body: { email: "archive@example.qa" } })
    ).json();

    const archived = await api.call("POST", `/v1/plans/${id}/archive`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ id, name: "Seasonal", archived_at: "2026-01-15T09:00:00.000Z" });
    // Again: nothing changes, the first archiving time stays.
    expect((await api.call("POST", `/v1/plans/${id}/archive`)).json()).toEqual(archived.json());

    const listedIds = async (query: string) =>
      (await api.call("GET", `/v1/plans?limit=100${query}`)).json().data.map((p: { id: string }) => p.id);
    expect(await listedIds("")).not.toContain(id);
    expect(await listedIds("&include_archived=true")).toContain(id);

    const refused = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: customer.id, plan_id: id },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: "plan_archived",
      detail: `plan ${id} is archived; it takes no new subscriptions`,
    });
    // An archived plan may still be renamed.
    expect(
      (await api.call("PATCH", `/v1/plans/${id}`, { body: { name: "Seasonal (old)" } })).json(),
    ).toMatchObject({ name: "Seasonal (old)", archived_at: "2026-01-15T09:00:00.000Z" });

    const unarchived = await api.call("POST", `/v1/plans/${id}/unarchive`, { body: {} });
    expect(unarchived.statusCode).toBe(200);
    expect(unarchived.json()).toMatchObject({ id, archived_at: null });
    expect((await api.call("POST", `/v1/plans/${id}/unarchive`)).json().archived_at).toBeNull();
    const enrolled = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: customer.id, plan_id: id },
    });
    expect(enrolled.statusCode).toBe(201);

    expect((await planEvents(id)).map((event) => [event.type, event.data])).toEqual([
      ["plan.created", expect.anything()],
      ["plan.archived", { plan_id: id, name: "Seasonal" }],
      ["plan.updated", expect.objectContaining({ fields: ["name"] })],
      ["plan.unarchived", { plan_id: id, name: "Seasonal (old)" }],
    ]);
  });

  it("answers 404 for an unknown plan", async () => {
    for (const action of ["archive", "unarchive"]) {
      const response = await api.call("POST", `/v1/plans/${randomUUID()}/${action}`);
      expect(response.statusCode, action).toBe(404);
    }
  });
});
