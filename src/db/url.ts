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

/** The same server and credentials, another database. */
export function withDatabase(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${encodeURIComponent(name)}`;
  return other.toString();
}
