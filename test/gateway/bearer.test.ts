import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControllableClock } from "../../src/clock/index.js";
import { GatewayAuthenticationError, GatewayUnavailableError } from "../../src/gateway/index.js";
import { failure } from "./support/failure.js";
import { API_KEY, FakeGateway, type Reply } from "./support/fake-gateway.js";
import { INVOICE_REPLY } from "./support/replies.js";

const AUTHORIZE = "/v1/Authorization/Authorize";
const QUICK = { description: "Consulting", amount: { minor: 1050, currency: "QAR" } };
const EMPTY_PAGE = { json: { status: "SUCCESS", products: [], total: 0, page_size: 10, page: 1 } };
const grant = (token: string, extra: object = {}): Reply => ({
  json: { success: true, bearer_token: token, ...extra },
});
const unauthorized: Reply = {
  status: 401,
  json: { status: "error", error: { error_code: "401", description: "token expired" } },
};

let gateway: FakeGateway;

beforeAll(async () => {
  gateway = await FakeGateway.start();
});
afterAll(() => gateway.close());
beforeEach(() => gateway.reset());

/** Answers bearer routes only for the given bearer value, as the gateway would. */
function acceptOnly(token: string, ok: Reply) {
  return (request: { headers: Record<string, string | string[] | undefined> }): Reply =>
    request.headers.authorization === `Bearer ${token}` ? ok : unauthorized;
}

describe("bearer value", () => {
  it("calls Authorize once with the api_key header and caches the value", async () => {
    gateway
      .on(AUTHORIZE, grant("tok-1"))
      .on("/v1/invoices", acceptOnly("tok-1", { status: 201, json: INVOICE_REPLY }));
    const client = gateway.client();
    await client.v1.createInvoice(QUICK);
    await client.v1.createInvoice(QUICK);
    const authorizations = gateway.hits(AUTHORIZE);
    expect(authorizations).toHaveLength(1);
    expect(authorizations[0]?.method).toBe("POST");
    expect(authorizations[0]?.headers.api_key).toBe(API_KEY);
    expect(gateway.hits("/v1/invoices").map((r) => r.headers.authorization)).toEqual([
      "Bearer tok-1",
      "Bearer tok-1",
    ]);
  });

  it("shares one Authorize call between concurrent requests", async () => {
    gateway.on(AUTHORIZE, grant("tok-1")).on("/v1/products", acceptOnly("tok-1", EMPTY_PAGE));
    const client = gateway.client();
    await Promise.all([client.v1.listProducts(), client.v1.listProducts(), client.v1.listProducts()]);
    expect(gateway.hits(AUTHORIZE)).toHaveLength(1);
  });

  it("uses a configured Authorize path", async () => {
    gateway.on("/api/auth", grant("tok-9")).on("/v1/products", acceptOnly("tok-9", EMPTY_PAGE));
    await gateway.client({ authorizePath: "/api/auth" }).v1.listProducts();
    expect(gateway.hits("/api/auth")).toHaveLength(1);
    expect(gateway.hits(AUTHORIZE)).toHaveLength(0);
  });

  it("renews the value once on a 401 and repeats the call once", async () => {
    gateway
      .sequence(AUTHORIZE, [grant("tok-1"), grant("tok-2")])
      .on("/v1/invoices", acceptOnly("tok-2", { status: 201, json: INVOICE_REPLY }));
    const invoice = await gateway.client().v1.createInvoice(QUICK);
    expect(invoice.id).toBe(77);
    expect(gateway.hits(AUTHORIZE)).toHaveLength(2);
    expect(gateway.hits("/v1/invoices").map((r) => r.headers.authorization)).toEqual([
      "Bearer tok-1",
      "Bearer tok-2",
    ]);
  });

  it("gives up after one renewal when the gateway still answers 401", async () => {
    gateway.sequence(AUTHORIZE, [grant("tok-1"), grant("tok-2")]).on("/v1/invoices", unauthorized);
    const error = await failure(gateway.client().v1.createInvoice(QUICK));
    expect(error).toBeInstanceOf(GatewayAuthenticationError);
    expect(error).toMatchObject({
      code: 401,
      httpStatus: 401,
      description: "token expired",
      outcomeUnknown: false,
    });
    expect(gateway.hits(AUTHORIZE)).toHaveLength(2);
    expect(gateway.hits("/v1/invoices")).toHaveLength(2);
  });

  it("never calls Authorize with a static access token, and a 401 is final", async () => {
    gateway.on(AUTHORIZE, grant("tok-1")).on("/v1/invoices", unauthorized);
    const error = await failure(gateway.client({ accessToken: "static-token" }).v1.createInvoice(QUICK));
    expect(error).toBeInstanceOf(GatewayAuthenticationError);
    expect(gateway.hits(AUTHORIZE)).toHaveLength(0);
    expect(gateway.last("/v1/invoices").headers.authorization).toBe("Bearer static-token");
    expect(gateway.hits("/v1/invoices")).toHaveLength(1);
  });

  it("renews when the stated expiry comes near", async () => {
    const clock = new ControllableClock("2024-05-01T00:00:00Z");
    gateway
      .sequence(AUTHORIZE, [grant("tok-1", { expires_in: 3600 }), grant("tok-2", { expires_in: "3600" })])
      .on("/v1/products", EMPTY_PAGE);
    const client = gateway.client({ clock });
    await client.v1.listProducts();
    clock.advance({ minutes: 50 });
    await client.v1.listProducts();
    expect(gateway.hits(AUTHORIZE)).toHaveLength(1);
    clock.advance({ minutes: 9, seconds: 45 });
    await client.v1.listProducts();
    expect(gateway.hits(AUTHORIZE)).toHaveLength(2);
    expect(gateway.last("/v1/products").headers.authorization).toBe("Bearer tok-2");
  });

  it("returns the grant with its expiry from authorize()", async () => {
    const clock = new ControllableClock("2024-05-01T00:00:00Z");
    gateway.on(AUTHORIZE, grant("tok-1", { expires_in: 600 }));
    const result = await gateway.client({ clock }).v1.authorize();
    expect(result.bearerToken).toBe("tok-1");
    expect(result.expiresAt?.toISO()).toBe("2024-05-01T00:10:00.000Z");
  });

  it("reads an expires_at instant and other key casings", async () => {
    gateway.on(AUTHORIZE, {
      json: { Success: "true", Bearer_Token: "tok-3", Expires_At: "2024-05-01T12:00:00Z" },
    });
    const result = await gateway.client().v1.authorize();
    expect(result.bearerToken).toBe("tok-3");
    expect(result.expiresAt?.toUTC().toISO()).toBe("2024-05-01T12:00:00.000Z");
  });

  it("refuses success: false from Authorize without sending the invoice", async () => {
    gateway.on(AUTHORIZE, { json: { success: false, message: "invalid api key" } });
    const error = await failure(gateway.client().v1.createInvoice(QUICK));
    expect(error).toBeInstanceOf(GatewayAuthenticationError);
    expect(error).toMatchObject({ operation: "v1.authorize", description: "invalid api key" });
    expect(gateway.hits("/v1/invoices")).toHaveLength(0);
  });

  it("retries a failing Authorize as a read, but not the invoice it serves", async () => {
    gateway.sequence(AUTHORIZE, [{ status: 503, text: "busy" }, grant("tok-1")]);
    gateway.on("/v1/invoices", { status: 201, json: INVOICE_REPLY });
    await gateway.client().v1.createInvoice(QUICK);
    expect(gateway.hits(AUTHORIZE)).toHaveLength(2);
    expect(gateway.hits("/v1/invoices")).toHaveLength(1);
  });

  it("reports an Authorize that stays down as unavailable with a known outcome", async () => {
    gateway.on(AUTHORIZE, { status: 503, text: "busy" });
    const error = await failure(gateway.client().v1.createInvoice(QUICK));
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ operation: "v1.authorize", code: 503, outcomeUnknown: false });
    expect(gateway.hits(AUTHORIZE)).toHaveLength(3);
    expect(gateway.hits("/v1/invoices")).toHaveLength(0);
  });
});
