/**
 * The columns of a subscription import file (import-row.ts says what each holds). A module of its
 * own, free of zod and luxon, so `billing import --help` can name them without loading the parser.
 */
export const IMPORT_COLUMNS = [
  "email",
  "name",
  "plan",
  "card_token",
  "token_kind",
  "card_expiry",
  "card_last4",
  "token_issued_at",
  "next_billing_at",
  "collection_method",
] as const;
