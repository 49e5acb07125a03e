import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../../src/events/index.js";
import { type ApiHarness, createApiHarness } from "./support.js";

/** The OpenAPI document's `webhooks` section: every event the engine POSTs, with its body schema. */

interface JsonSchema {
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: string[];
  const?: string;
  allOf?: JsonSchema[];
}

interface WebhookItem {
  post: {
    description: string;
    parameters: { in: string; name: string; required: boolean }[];
    requestBody: { content: { "application/json": { schema: JsonSchema } } };
    responses: Record<string, unknown>;
  };
}

let api: ApiHarness;
let webhooks: Record<string, WebhookItem>;
let schemas: Record<string, JsonSchema>;
beforeAll(async () => {
  api = await createApiHarness();
  const doc = (await api.app.inject({ url: "/openapi.json" })).json();
  webhooks = doc.webhooks;
  schemas = doc.components.schemas;
});
afterAll(() => api?.close());

const bodyRef = (type: string) => webhooks[type]?.post.requestBody.content["application/json"].schema.$ref;
const component = (ref: string | undefined) => schemas[(ref ?? "").replace("#/components/schemas/", "")];

describe("OpenAPI webhooks", () => {
  it("lists every public event type, and nothing else", () => {
    expect(Object.keys(webhooks).sort()).toEqual(Object.keys(WEBHOOK_EVENT_TYPES).sort());
  });

  it("gives charge events a body whose data.object is the charge, with its money, period and plan", () => {
    expect(bodyRef("charge.succeeded")).toBe("#/components/schemas/ChargeWebhookEvent");
    const event = component(bodyRef("charge.succeeded"))!;
    expect(event.properties?.type?.enum).toEqual(
      expect.arrayContaining(["charge.succeeded", "charge.failed"]),
    );
    expect(event.properties?.data?.required).toEqual(expect.arrayContaining(["object", "charge_id"]));
    expect(event.properties?.data?.properties?.object?.$ref).toBe("#/components/schemas/WebhookCharge");
    const charge = schemas.WebhookCharge!;
    expect(charge.required).toEqual(
      expect.arrayContaining([
        "object",
        "id",
        "amount",
        "status",
        "kind",
        "period_start",
        "period_end",
        "plan_id",
        "plan_name",
        "subscription_id",
        "customer_id",
        "quantity",
      ]),
    );
    expect(charge.properties?.object?.const).toBe("charge");
    expect(charge.properties?.amount?.$ref).toBe("#/components/schemas/Money");
    expect(webhooks["charge.succeeded"]?.post.description).toContain(
      "as it was when the delivery first went out",
    );
  });

  it("gives subscription events a body whose data.object is the subscription", () => {
    expect(bodyRef("subscription.canceled")).toBe("#/components/schemas/SubscriptionWebhookEvent");
    const subscription = schemas.WebhookSubscription!;
    expect(subscription.properties?.object?.const).toBe("subscription");
    expect(subscription.required).toEqual(
      expect.arrayContaining([
        "id",
        "status",
        "plan_id",
        "plan_name",
        "quantity",
        "current_period_start",
        "current_period_end",
        "cancel_at_period_end",
        "collection_method",
        "customer_id",
      ]),
    );
  });

  it("gives the other events their facts alone", () => {
    expect(bodyRef("invoice.created")).toBe("#/components/schemas/WebhookEvent");
    expect(bodyRef("entitlements.changed")).toBe("#/components/schemas/WebhookEvent");
  });

  it("documents the signature and event headers on every webhook", () => {
    for (const [type, item] of Object.entries(webhooks)) {
      const headers = item.post.parameters.filter((p) => p.in === "header" && p.required).map((p) => p.name);
      expect(headers, type).toEqual(["Billing-Signature", "Billing-Event-Id", "Billing-Event-Type"]);
      expect(Object.keys(item.post.responses), type).toEqual(["2XX"]);
    }
  });
});
