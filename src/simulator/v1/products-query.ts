import { DateTime } from "luxon";
import { z } from "zod";
import { exponentOf } from "../../money/index.js";
import type { Product } from "./catalogue.js";
import { parsedField, SIM_ZONE } from "./invoices-validation.js";

/**
 * The GET /v1/products query and the filter it describes. Parameters sent empty (`?q=`) count as
 * not sent; unknown parameters are ignored. Text filters ignore case.
 */

/** Page defaults; the spec does not show what the gateway uses when they are left out. */
export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 10;

const integerParam = (min: number, max: number, message: string) =>
  parsedField((value) => {
    if (typeof value !== "string" || !/^\d+$/.test(value)) return undefined;
    const number = Number(value);
    return number >= min && number <= max ? number : undefined;
  }, message);

const booleanParam = () =>
  parsedField((value) => {
    const text = String(value).toLowerCase();
    return text === "true" ? true : text === "false" ? false : undefined;
  }, "must be true or false");

/** A calendar date, kept as its yyyy-mm-dd text so it compares as a string. */
const dateParam = () =>
  parsedField((value) => {
    if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
    return DateTime.fromISO(value).isValid ? value : undefined;
  }, "must be a date written yyyy-mm-dd");

const idParam = () => integerParam(1, Number.MAX_SAFE_INTEGER, "must be a positive integer");
const boundParam = () => integerParam(0, Number.MAX_SAFE_INTEGER, "must be a non-negative integer");

export const productQuerySchema = z.object({
  q: z.string().optional(),
  status: z.enum(["online", "offline", "cashier"]).optional(),
  page: integerParam(1, 1000, "must be an integer from 1 to 1000").default(DEFAULT_PAGE),
  page_size: integerParam(1, 100, "must be an integer from 1 to 100").default(DEFAULT_PAGE_SIZE),
  from: dateParam().optional(),
  to: dateParam().optional(),
  // The spec writes `Id`; `id` is taken as well, and `Id` wins when both are sent.
  Id: idParam().optional(),
  id: idParam().optional(),
  sku: z.string().optional(),
  is_cashier: booleanParam().optional(),
  is_public: booleanParam().optional(),
  category: z.string().optional(),
  min: boundParam().optional(),
  max: boundParam().optional(),
});

export type ProductQuery = z.output<typeof productQuerySchema>;

/** Drops parameters that were sent without a value. */
export function presentParams(query: Record<string, string | undefined>): Record<string, string> {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value.trim() !== "") present[name] = value.trim();
  }
  return present;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** min and max are whole units of the product's currency, both ends included. */
function withinPrice(product: Product, query: ProductQuery): boolean {
  const scale = 10n ** BigInt(exponentOf(product.currency));
  const price = BigInt(product.priceMinor);
  if (query.min !== undefined && price < BigInt(query.min) * scale) return false;
  return query.max === undefined || price <= BigInt(query.max) * scale;
}

export function matchesQuery(product: Product, query: ProductQuery): boolean {
  const { q, status, from, to, sku, category } = query;
  const id = query.Id ?? query.id;
  // q is described by the spec as "a quantity"; the simulator treats it as free-text search.
  const needle = q?.toLowerCase();
  if (
    needle &&
    ![product.name, product.description, product.sku].some((t) => t.toLowerCase().includes(needle))
  ) {
    return false;
  }
  if (status === "online" && !product.online) return false;
  if (status === "offline" && product.online) return false;
  if (status === "cashier" && !product.setting.isCashier) return false;
  // from and to are calendar days in Qatar time, both included.
  const created = product.createdAt.setZone(SIM_ZONE).toISODate() ?? "";
  if (from !== undefined && created < from) return false;
  if (to !== undefined && created > to) return false;
  if (id !== undefined && product.id !== id) return false;
  if (sku !== undefined && !same(product.sku, sku)) return false;
  if (query.is_cashier !== undefined && product.setting.isCashier !== query.is_cashier) return false;
  if (query.is_public !== undefined && product.setting.isPublic !== query.is_public) return false;
  if (category !== undefined && !product.category.some((c) => same(c, category))) return false;
  return withinPrice(product, query);
}
