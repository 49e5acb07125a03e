import type { Config } from "../config/index.js";
import type { CustomerLanguage } from "../customers/index.js";
import type { DocumentLanguage } from "../documents/index.js";

/**
 * Rule: a document is printed in the language asked for (a link's ?lang=, the API's and the CLI's
 * lang) when there is one; else in Arabic over English for everyone when RECEIPT_BILINGUAL is set;
 * else in its customer's language.
 */

export const DOCUMENT_LANGUAGES = ["en", "ar", "bilingual"] as const satisfies readonly DocumentLanguage[];

export function documentLanguage(
  config: Pick<Config, "RECEIPT_BILINGUAL">,
  customerLanguage: CustomerLanguage,
  asked?: DocumentLanguage,
): DocumentLanguage {
  if (asked !== undefined) return asked;
  return config.RECEIPT_BILINGUAL ? "bilingual" : customerLanguage;
}
