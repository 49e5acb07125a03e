/**
 * Database names in URLs. postgres.js takes the path of a URL verbatim as the database name, so
 * a percent-encoded name (spaces, quotes) would not match the database CREATE DATABASE made;
 * every connection therefore passes the decoded name explicitly.
 */

export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) throw new Error("the database URL names no database (expected postgres://…/<name>)");
  return name;
}

/**
 * Where a URL points, for messages: host:port, user and database, never the password. The host of a
 * Unix socket comes from `?host=`.
 */
export function describeTarget(url: string): string {
  const parsed = new URL(url);
  const host = parsed.searchParams.get("host") ?? parsed.hostname;
  const user = decodeURIComponent(parsed.username) || "(default user)";
  return `${host}:${parsed.port || "5432"} (user ${user}, database ${databaseName(url)})`;
}

/** The same server and credentials, another database. */
export function withDatabase(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${encodeURIComponent(name)}`;
  return other.toString();
}
