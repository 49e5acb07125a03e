import type { Command } from "commander";
import type { CouponDuration } from "../../billing/index.js";
import { archiveCoupon, createCoupon, getCoupon, listCoupons } from "../../coupons/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError } from "../errors.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentCoupon } from "../present.js";

/** `billing coupons …`: the coupons a merchant hands out, through the coupons service. */

export async function create(
  cli: Cli,
  options: {
    code: string;
    name?: string;
    percentOff?: number;
    amountOff?: string;
    currency?: string;
    duration: CouponDuration;
    durationPeriods?: number;
    maxRedemptions?: number;
    expiresAt?: string;
  },
  command: Command,
): Promise<void> {
  const coupon = await cli.withDatabase((ctx) =>
    createCoupon(
      ctx,
      {
        code: options.code,
        name: options.name,
        percent_off: options.percentOff,
        amount_off: options.amountOff,
        currency: options.currency?.toUpperCase(),
        duration: options.duration,
        duration_periods: options.durationPeriods,
        max_redemptions: options.maxRedemptions,
        expires_at: options.expiresAt,
      },
      { actor: CLI_ACTOR },
    ),
  );
  const shown = presentCoupon(coupon);
  cli.output(command).result(shown, () => fields(shown));
}

export async function list(cli: Cli, options: { archived?: boolean }, command: Command): Promise<void> {
  const coupons = await cli.withDatabase((ctx) =>
    allPages(async (after) => {
      const page = await listCoupons(ctx, { includeArchived: Boolean(options.archived), limit: 500, after });
      return { rows: page.coupons, next: page.nextCursor };
    }),
  );
  const shown = coupons.map(presentCoupon);
  const columns = [
    "id",
    "code",
    "percent_off",
    "amount_off",
    "currency",
    "duration",
    "redemptions",
    "expires_at",
  ] as const;
  // With --archived the list mixes both, so it says which coupons are archived, and since when.
  cli
    .output(command)
    .result({ data: shown }, () => table(shown, options.archived ? [...columns, "archived_at"] : columns));
}

export async function show(cli: Cli, idOrCode: string, _options: unknown, command: Command): Promise<void> {
  const coupon = await cli.withDatabase((ctx) => getCoupon(ctx, idOrCode));
  if (!coupon) throw new CliError(`no coupon ${idOrCode}`);
  const shown = presentCoupon(coupon);
  cli.output(command).result(shown, () => fields(shown));
}

export async function archive(
  cli: Cli,
  idOrCode: string,
  _options: unknown,
  command: Command,
): Promise<void> {
  const coupon = await cli.withDatabase((ctx) => archiveCoupon(ctx, { idOrCode, actor: CLI_ACTOR }));
  if (!coupon) throw new CliError(`no coupon ${idOrCode}`);
  const shown = presentCoupon(coupon);
  cli.output(command).result(shown, () => fields(shown));
}
