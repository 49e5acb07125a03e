import type { Command } from "commander";
import type { FeatureKind } from "../../billing/index.js";
import {
  archiveFeature,
  createFeature,
  FeatureError,
  listFeatures,
  listPlanFeatures,
  type StoredFeature,
  type StoredPlanFeature,
  setPlanFeature,
  unsetPlanFeature,
} from "../../entitlements/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError, optionError } from "../errors.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";

/** `billing features …` and `billing plans features …`, through the entitlements services. */

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

function presentFeature(feature: StoredFeature) {
  return {
    id: feature.id,
    code: feature.code,
    name: feature.name,
    kind: feature.kind,
    archived: feature.archivedAt !== null,
    created_at: iso(feature.createdAt),
  };
}

function presentPlanFeature(row: StoredPlanFeature) {
  return {
    plan_id: row.planId,
    feature: row.feature.code,
    kind: row.feature.kind,
    limit: row.limit,
    unlimited: row.feature.kind === "limit" && row.limit === null,
    feature_archived: row.feature.archivedAt !== null,
  };
}

export async function create(
  cli: Cli,
  options: { code: string; name: string; kind: FeatureKind },
  command: Command,
): Promise<void> {
  const feature = await cli.withDatabase((ctx) => createFeature(ctx, options, { actor: CLI_ACTOR }));
  const shown = presentFeature(feature);
  cli.output(command).result(shown, () => fields(shown));
}

export async function list(cli: Cli, options: { archived?: boolean }, command: Command): Promise<void> {
  const features = await cli.withDatabase((ctx) =>
    allPages(async (after) => {
      const page = await listFeatures(ctx, { includeArchived: Boolean(options.archived), limit: 500, after });
      return { rows: page.features, next: page.nextCursor };
    }),
  );
  const shown = features.map(presentFeature);
  cli
    .output(command)
    .result({ data: shown }, () => table(shown, ["code", "name", "kind", "archived", "created_at"]));
}

export async function archive(cli: Cli, code: string, _options: unknown, command: Command): Promise<void> {
  const feature = await cli.withDatabase((ctx) => archiveFeature(ctx, { code, actor: CLI_ACTOR }));
  if (!feature) throw new CliError(`no feature ${code}`);
  const shown = presentFeature(feature);
  cli.output(command).result(shown, () => fields(shown));
}

/** The services word limit refusals for the API's body; here the options carry the limit. */
function limitRefusal(error: unknown): unknown {
  if (!(error instanceof FeatureError)) return error;
  const feature = String(error.details.feature);
  if (error.code === "limit_not_allowed") {
    return optionError("--limit", `feature ${feature} is a switch (kind boolean): it takes no limit`);
  }
  if (error.code === "limit_required") {
    return optionError("--limit", `feature ${feature} is a limit: give --limit N or --unlimited`);
  }
  return error;
}

export async function setOnPlan(
  cli: Cli,
  planId: string,
  code: string,
  options: { limit?: number; unlimited?: boolean },
  command: Command,
): Promise<void> {
  if (options.limit !== undefined && options.unlimited) {
    throw optionError("--unlimited", "give either --limit N or --unlimited, not both");
  }
  const limit = options.unlimited
    ? { limit: null }
    : options.limit === undefined
      ? {}
      : { limit: options.limit };
  const set = await cli
    .withDatabase((ctx) => setPlanFeature(ctx, { planId, code, ...limit, actor: CLI_ACTOR }))
    .catch((error: unknown) => {
      throw limitRefusal(error);
    });
  const shown = { ...presentPlanFeature(set), changed: set.changed };
  cli.output(command).result(shown, () => fields(shown));
}

export async function unsetOnPlan(
  cli: Cli,
  planId: string,
  code: string,
  _options: unknown,
  command: Command,
): Promise<void> {
  const removed = await cli.withDatabase((ctx) => unsetPlanFeature(ctx, { planId, code, actor: CLI_ACTOR }));
  const shown = { plan_id: removed.planId, feature: removed.feature.code, removed: true };
  cli.output(command).result(shown, () => fields(shown));
}

export async function listOnPlan(
  cli: Cli,
  planId: string,
  _options: unknown,
  command: Command,
): Promise<void> {
  const rows = await cli.withDatabase((ctx) => listPlanFeatures(ctx, planId));
  if (!rows) throw new CliError(`no plan ${planId}`);
  const shown = rows.map(presentPlanFeature);
  cli
    .output(command)
    .result({ data: shown }, () =>
      table(shown, ["feature", "kind", "limit", "unlimited", "feature_archived"]),
    );
}
