import { asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddonInputError, createAddon } from "../../../src/addons/index.js";
import { addons, events } from "../../../src/db/schema/index.js";
import { type ApiHarness, createApiHarness } from "../api/support.js";

/**
 * The add-on catalogue through the merchant API: each price model stored and shown as a plan's,
 * every bad field named in one 400, codes unique, listing with and without archived ones, and
 * archiving.
 */

let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; location: string; message: string }[];
}
const problem = (response: { json: () => unknown }) => response.json() as Problem;
const fields = (response: { json: () => unknown }) => problem(response).errors?.map((e) => e.field) ?? [];

const create = (body: Record<string, unknown>) => api.call("POST", "/v1/addons", { body });

describe("POST /v1/addons", () => {
  it("stores each price model with its own fields, shown as a plan's price", async () => {
    const flat = await create({
      code: "support",
      name: "Priority support",
      currency: "QAR",
      amount: "25.50",
    });
    expect(flat.statusCode, flat.body).toBe(201);
    expect(flat.json()).toMatchObject({
      code: "support",
      name: "Priority support",
      price_model: "flat",
      amount: { amount: "25.50", amount_minor: 2550, currency: "QAR" },
      tiers: null,
      package_size: null,
      archived_at: null,
    });

    const perUnit = await create({
      code: "extra-seat",
      name: "Extra seat",
      currency: "QAR",
      price_model: "per_unit",
      amount: "10.00",
    });
    expect(perUnit.statusCode, perUnit.body).toBe(201);
    expect(perUnit.json()).toMatchObject({ price_model: "per_unit", amount: { amount_minor: 1000 } });

    const pack = await create({
      code: "sms.pack",
      name: "SMS, per 100",
      currency: "QAR",
      price_model: "package",
      amount: "5.00",
      package_size: 100,
    });
    expect(pack.statusCode, pack.body).toBe(201);
    expect(pack.json()).toMatchObject({
      price_model: "package",
      amount: { amount_minor: 500 },
      package_size: 100,
    });

    const tiers = [
      { up_to: 10, unit_amount: "2.00" },
      { up_to: null, unit_amount: "1.50", flat_amount: "3.00" },
    ];
    for (const model of ["tiered", "volume"] as const) {
      const response = await create({
        code: `storage_${model}`,
        name: "Storage",
        currency: "QAR",
        price_model: model,
        tiers,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        price_model: model,
        amount: { amount_minor: 0 },
        tiers: [
          { up_to: 10, unit_amount: "2.00", flat_amount: "0.00" },
          { up_to: null, unit_amount: "1.50", flat_amount: "3.00" },
        ],
        package_size: null,
      });
    }

    // The stored form is the plans' (minor units, snake_case), and creation is in the event log.
    const [stored] = await api.h.ctx.db.select().from(addons).where(eq(addons.code, "storage_tiered"));
    expect(stored?.tiers).toEqual([
      { up_to: 10, unit_amount_minor: 200, flat_amount_minor: 0 },
      { up_to: null, unit_amount_minor: 150, flat_amount_minor: 300 },
    ]);
    const created = await api.h.ctx.db
      .select({ data: events.data })
      .from(events)
      .where(eq(events.type, "addon.created"))
      .orderBy(asc(events.id));
    expect(created.map((row) => (row.data as { code: string }).code)).toEqual([
      "support",
      "extra-seat",
      "sms.pack",
      "storage_tiered",
      "storage_volume",
    ]);
  });

  it("names every offending field in one 400", async () => {
    const missingAmount = await create({ code: "a1", name: "A", currency: "QAR" });
    expect(missingAmount.statusCode).toBe(400);
    expect(fields(missingAmount)).toEqual(["amount"]);

    const many = await create({
      code: "Bad Code",
      name: " ",
      currency: "QAR",
      price_model: "flat",
      amount: "1.005",
      tiers: [{ up_to: null, unit_amount: "1.00" }],
      package_size: 3,
    });
    expect(many.statusCode).toBe(400);
    expect(fields(many).sort()).toEqual(["amount", "code", "name", "package_size", "tiers"]);

    const badTiers = await create({
      code: "a2",
      name: "A",
      currency: "QAR",
      price_model: "tiered",
      tiers: [
        { up_to: 10, unit_amount: "1.001" },
        { up_to: 5, unit_amount: "1.00" },
      ],
    });
    expect(badTiers.statusCode).toBe(400);
    expect(fields(badTiers).sort()).toEqual(["tiers.0.unit_amount", "tiers.1.up_to"]);

    const packageWithout = await create({
      code: "a3",
      name: "A",
      currency: "QAR",
      price_model: "package",
      amount: "1",
    });
    expect(fields(packageWithout)).toEqual(["package_size"]);

    // An add-on is billed each period of whatever plan it is on: no interval, no billing mode.
    const planFields = await create({
      code: "a4",
      name: "A",
      currency: "QAR",
      amount: "1.00",
      interval: "month",
      billing_mode: "autosave",
    });
    expect(planFields.statusCode).toBe(400);
    expect(fields(planFields).sort()).toEqual(["billing_mode", "interval"]);

    // Only currencies the gateway account takes (GATEWAY_CURRENCIES, QAR here).
    const otherCurrency = await create({ code: "a5", name: "A", currency: "EUR", amount: "1.00" });
    expect(fields(otherCurrency)).toEqual(["currency"]);
    expect(problem(otherCurrency).errors?.[0]?.message).toContain("GATEWAY_CURRENCIES");

    const zero = await create({ code: "a6", name: "A", currency: "QAR", amount: "0" });
    expect(fields(zero)).toEqual(["amount"]);

    const stored = await api.h.ctx.db.select().from(addons).where(like(addons.code, "a%"));
    expect(stored).toEqual([]);
  });

  it("refuses a code already taken, archived add-ons' too, naming code", async () => {
    const body = { code: "taken", name: "Taken", currency: "QAR", amount: "1.00" };
    expect((await create(body)).statusCode).toBe(201);
    await api.call("POST", "/v1/addons/taken/archive");
    const again = await create({ ...body, name: "Again" });
    expect(again.statusCode).toBe(409);
    expect(problem(again).code).toBe("addon_exists");
    expect(fields(again)).toEqual(["code"]);
  });

  it("refuses a bad body from the service itself with every field named", async () => {
    const error = await createAddon(api.h.ctx, {
      code: "x",
      name: "X",
      currency: "QAR",
      price_model: "volume",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AddonInputError);
    expect((error as AddonInputError).issues.map((issue) => issue.field)).toEqual(["tiers"]);
  });
});

describe("reading and archiving add-ons", () => {
  it("gets one by code or by id, and answers 404 for neither", async () => {
    const created = await create({ code: "backup", name: "Backup", currency: "QAR", amount: "7.00" });
    const { id } = created.json() as { id: string };
    expect((await api.call("GET", "/v1/addons/backup")).json()).toMatchObject({ id, code: "backup" });
    expect((await api.call("GET", `/v1/addons/${id}`)).json()).toMatchObject({ id, code: "backup" });
    const missing = await api.call("GET", "/v1/addons/nothing-here");
    expect(missing.statusCode).toBe(404);
    expect(problem(missing).code).toBe("not_found");
  });

  it("archives once, and lists archived add-ons only when asked", async () => {
    await create({ code: "old-thing", name: "Old", currency: "QAR", amount: "3.00" });
    const archived = await api.call("POST", "/v1/addons/old-thing/archive");
    expect(archived.statusCode).toBe(200);
    const archivedAt = archived.json().archived_at as string;
    expect(archivedAt).toBe(api.h.clock.now().toUTC().toISO());
    api.h.clock.advance({ minutes: 5 });
    const again = await api.call("POST", "/v1/addons/old-thing/archive");
    expect(again.json().archived_at).toBe(archivedAt);
    const archivedEvents = await api.h.ctx.db.select().from(events).where(eq(events.type, "addon.archived"));
    expect(archivedEvents.filter((e) => (e.data as { code: string }).code === "old-thing")).toHaveLength(1);

    const codes = async (query: string) =>
      ((await api.call("GET", `/v1/addons${query}`)).json().data as { code: string }[]).map((a) => a.code);
    expect(await codes("")).not.toContain("old-thing");
    expect(await codes("?archived=true")).toContain("old-thing");
    expect(await codes("?archived=true")).toContain("backup");

    expect((await api.call("POST", "/v1/addons/never-made/archive")).statusCode).toBe(404);
  });

  it("pages oldest first", async () => {
    const first = await api.call("GET", "/v1/addons?limit=2");
    const page = first.json() as { data: { id: string; code: string }[]; has_more: boolean };
    expect(page.data).toHaveLength(2);
    expect(page.has_more).toBe(true);
    const next = await api.call("GET", `/v1/addons?limit=100&starting_after=${page.data[1]!.id}`);
    const rest = (next.json().data as { id: string }[]).map((a) => a.id);
    expect(rest).not.toContain(page.data[0]!.id);
    expect(rest).not.toContain(page.data[1]!.id);
  });
});
