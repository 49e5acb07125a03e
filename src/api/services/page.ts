/**
 * The API's pages: `limit` rows after the `starting_after` cursor (db afterCursor), and whether
 * more exist.
 */

export interface PageRequest {
  limit: number;
  starting_after?: string | undefined;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

/** Turns `limit + 1` fetched rows into a page, the extra row only telling that more exist. */
export function toPage<T>(rows: T[], limit: number): Page<T> {
  return { data: rows.slice(0, limit), has_more: rows.length > limit };
}
