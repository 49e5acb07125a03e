import type { Command } from "commander";
import {
  customerEntitlements,
  type EntitlementSource,
  type EntitlementsBody,
  entitlementSources,
  entitlementsBody,
} from "../../entitlements/index.js";
import type { Cli } from "../cli.js";
import { CliError } from "../errors.js";
import { fields, table } from "../output.js";

/**
 * `billing customers entitlements ID`: what a customer may use now, as GET
 * /v1/customers/:id/entitlements answers it (--json prints that answer); a person also sees which
 * subscriptions each feature comes from, with their status and plan.
 */

export async function show(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const output = cli.output(command);
  const found = await cli.withDatabase(async (ctx) => {
    const value = await customerEntitlements(ctx, id);
    if (!value) return null;
    // The API's answer names no sources: read only for a person, so --json stays that answer.
    const sources = output.json ? [] : await entitlementSources(ctx, value.subscriptions);
    return { body: entitlementsBody(value), sources };
  });
  if (!found) throw new CliError(`no customer with id ${id}`);
  output.result(found.body, () => human(found.body, found.sources));
}

function human(body: EntitlementsBody, sources: readonly EntitlementSource[]): string {
  const features = body.entitlements.map(({ feature, kind, limit }) => ({
    feature,
    kind,
    value: kind === "boolean" ? "on" : (limit ?? "unlimited"),
    from: sources
      .filter((source) => source.features.includes(feature))
      .map((source) => source.subscriptionId)
      .join(", "),
  }));
  const subscriptions = sources.map((source) => ({
    subscription: source.subscriptionId,
    status: source.status,
    plan: source.planName,
    plan_id: source.planId,
  }));
  return [
    fields({ customer_id: body.customer_id, as_of: body.as_of, grace_ends_at: body.grace_ends_at }),
    "",
    table(features, ["feature", "kind", "value", "from"]),
    ...(subscriptions.length === 0
      ? []
      : ["", table(subscriptions, ["subscription", "status", "plan", "plan_id"])]),
  ].join("\n");
}
