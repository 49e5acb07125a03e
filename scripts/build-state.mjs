/**
 * Whether dist/ (the compiled JavaScript, `npm run build`) still matches the sources it was built
 * from. The rule, cheap enough for every `billing` call (one stat per input file, a few ms): the
 * build records when it started; dist is fresh when that record exists and no input file or folder
 * was modified since. An edit, a `git pull` or a branch switch touches the files it changes (and a
 * deleted file its folder), so a tree that changed after the build is stale until the next build. Plain JavaScript, so the bin can ask
 * before anything is compiled.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = "dist";
/** Written last by the build: `{ "started_at": <ms since the epoch> }`. */
export const STAMP = path.join(DIST, "build.json");
/** What the build reads, relative to the root: compiled sources, copied assets, compiler settings. */
export const INPUTS = [
  "src",
  "workers",
  "scripts/billing.ts",
  "drizzle",
  "tsconfig.json",
  "tsconfig.build.json",
];

/**
 * The newest modification time (ms) under `entry`, a file or a folder, folders' own included (a
 * deleted or renamed file changes its folder's) and Markdown files left out; 0 when it is missing.
 */
function newestUnder(entry) {
  let stats;
  try {
    stats = statSync(entry);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry, { withFileTypes: true })) {
    const at = `${entry}/${child.name}`; // not path.join: this runs on every call, a few hundred times
    if (child.isDirectory()) newest = Math.max(newest, newestUnder(at));
    else if (!child.name.endsWith(".md")) newest = Math.max(newest, statSync(at).mtimeMs); // docs are not built
  }
  return newest;
}

/** When the last complete build of `root` started, or undefined when there is none. */
export function builtAt(root = ROOT) {
  try {
    const { started_at } = JSON.parse(readFileSync(path.join(root, STAMP), "utf8"));
    return typeof started_at === "number" ? started_at : undefined;
  } catch {
    return undefined;
  }
}

/** True when `root`'s dist/ is complete and no input changed after its build started. */
export function distIsFresh(root = ROOT) {
  const started = builtAt(root);
  if (started === undefined) return false;
  return INPUTS.every((input) => newestUnder(path.join(root, input)) <= started);
}
