/**
 * Every row of a keyset-paged listing: the services page (at most a few hundred rows a query), the
 * CLI prints the whole list. `fetchPage` gets the cursor of the previous page (undefined first) and
 * returns its rows and the next cursor (null on the last page).
 */
export async function allPages<T>(
  fetchPage: (after: string | undefined) => Promise<{ rows: T[]; next: string | null }>,
): Promise<T[]> {
  const all: T[] = [];
  let after: string | undefined;
  do {
    const page = await fetchPage(after);
    all.push(...page.rows);
    after = page.next ?? undefined;
  } while (after !== undefined);
  return all;
}
