import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Sim } from "./harness.js";

/** "Authentication": api_key header, bearer from Authorize, legacy body token. */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const UNKNOWN_GUID = "0f8fad5b-d9cb-469f-a165-70867728950e";
const unauthorized = (description: string | RegExp) => ({
  status: "error",
  error: { error_code: "401", description: expect.stringMatching(description) },
});

describe("v1 api_key header", () => {
  const operations: [string, unknown][] = [
    ["/v1/payments/checkout", { amount: "1", order_id: "o", client: { email: "a@b.qa" } }],
    ["/v1/payments/refund", { transaction_id: "1", order_id: "o" }],
    ["/v1/Authorization/Authorize", {}],
  ];

  it.each(operations)("%s: missing → 401 v1 error body", async (path, body) => {
    const response = await sim.v1(path, body, {});
    expect(response.status).toBe(401);
    expect(response.body).toEqual(unauthorized(/api_key header missing/));
  });

  it.each(operations)("%s: unknown merchant → 401 v1 error body", async (path, body) => {
    const response = await sim.v1(path, body, { api_key: UNKNOWN_GUID });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(unauthorized(/unknown api_key/));
  });

  it("matches the GUID whatever its letter case", async () => {
    expect(await sim.checkout({}, sim.apiKey.toUpperCase())).toMatch(/checkout/);
  });

  it("each merchant sees only its own payments", async () => {
    const other = await sim.createMerchant({ name: "Other" });
    await sim.pay(await sim.checkout({ order_id: "mine" }));
    const [payment] = (await sim.ledger()).payments;
    const refund = await sim.v1(
      "/v1/payments/refund",
      { transaction_id: payment?.transaction_id, order_id: "mine" },
      { api_key: other },
    );
    expect(refund.status).toBe(404);
    const status = await sim.legacy("CheckStatus", { token: other, orderId: "mine" });
    expect(status.body).toEqual({ result: 0 });
  });
});

describe("Authorize and bearer values", () => {
  it("Authorize answers {success: true, bearer_token, expires_in: 3600}", async () => {
    const response = await sim.v1("/v1/Authorization/Authorize", {});
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, bearer_token: expect.any(String), expires_in: 3600 });
  });

  const bearerRoutes = [
    { method: "POST", path: "/v1/invoices" },
    { method: "GET", path: "/v1/products" },
  ];

  async function call(route: { method: string; path: string }, authorization?: string) {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    return route.method === "GET"
      ? sim.get(route.path, headers)
      : sim.post(route.path, { amount: "5.00", description: "x" }, headers);
  }

  it.each(bearerRoutes)("$method $path: missing, malformed or unknown bearer → 401", async (route) => {
    for (const authorization of [undefined, "Basic abc", `Bearer not-issued`]) {
      const response = await call(route, authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.body).toEqual(unauthorized(/bearer/));
    }
  });

  it.each(bearerRoutes)(
    "$method $path: the bearer expires after 3600 s on the simulator clock",
    async (route) => {
      const token = (await sim.v1("/v1/Authorization/Authorize", {})).body.bearer_token!;
      sim.clock.advance("PT59M59S");
      expect((await call(route, `Bearer ${token}`)).status).toBeLessThan(300);
      sim.clock.advance("PT1S");
      const expired = await call(route, `Bearer ${token}`);
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual(unauthorized(/expired/));
    },
  );

  it("a bearer acts for the merchant it was issued to", async () => {
    const other = await sim.createMerchant({ name: "Other" });
    const token = (await sim.v1("/v1/Authorization/Authorize", {}, { api_key: other })).body.bearer_token!;
    await sim.post(
      "/v1/invoices",
      { amount: "5.00", description: "x" },
      { authorization: `Bearer ${token}` },
    );
    const [invoice] = (await sim.ledger()).invoices as { merchant_id: number }[];
    expect(invoice?.merchant_id).toBe(2);
  });

  it("a reset forgets the bearers", async () => {
    const token = (await sim.v1("/v1/Authorization/Authorize", {})).body.bearer_token!;
    await sim.reset();
    expect((await sim.get("/v1/products", { authorization: `Bearer ${token}` })).status).toBe(401);
  });
});

describe("legacy token body field", () => {
  const operations = [
    "AddTransaction",
    "Refund",
    "CheckStatus",
    "ValidatePayment",
    "GetnewPayment",
    "StopRecurring",
  ];

  it.each(operations)(
    "%s: not sent → -10, not a GUID → -8, unknown GUID → -1 (HTTP 200)",
    async (operation) => {
      const missing = await sim.legacy(operation, { token: undefined, orderId: "o" });
      const notGuid = await sim.legacy(operation, { token: "my-api-key", orderId: "o" });
      const unknown = await sim.legacy(operation, { token: UNKNOWN_GUID, orderId: "o" });
      expect([missing.status, notGuid.status, unknown.status]).toEqual([200, 200, 200]);
      expect([missing.body, notGuid.body, unknown.body]).toEqual([
        { result: -10 },
        { result: -8 },
        { result: -1 },
      ]);
    },
  );
});
