/**
 * The languages of the gateway's checkout page a customer can have. A module of its own, free of
 * zod, so the CLI can list them in `customers create --help` without loading the validation.
 */
export const CUSTOMER_LANGUAGES = ["en", "ar"] as const;
export type CustomerLanguage = (typeof CUSTOMER_LANGUAGES)[number];
