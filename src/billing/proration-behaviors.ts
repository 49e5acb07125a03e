/** How a plan change is billed (proration.ts); apart so the CLI can list them without luxon. */
export const PRORATION_BEHAVIORS = ["immediate_prorate", "at_period_end", "none"] as const;
export type ProrationBehavior = (typeof PRORATION_BEHAVIORS)[number];
