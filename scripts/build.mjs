#!/usr/bin/env node
/**
 * `npm run build` (also npm's `prepare`, so `npm install` and `npm ci` run it): compiles src/,
 * workers/ and scripts/billing.ts to dist/ (tsconfig.build.json: ESM, the same `.js` specifiers),
 * then copies what the compiled code reads beside itself: the ops dashboard's and the portal's assets
 * (src/http/{ops,portal}/assets), the customer messages' templates (src/messages/templates) and
 * the migrations (drizzle/, found at ../../drizzle from src/db). dist/ is rebuilt whole, so a
 * deleted source leaves nothing behind, and stamped last (build-state.mjs): a build that failed
 * half-way is never taken as fresh. Types are not checked here (`npm run
 * typecheck` does that), which keeps the build to a few seconds.
 */
import { spawnSync } from "node:child_process";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { DIST, ROOT, STAMP } from "./build-state.mjs";

const COPIED = ["src/http/ops/assets", "src/http/portal/assets", "src/messages/templates", "drizzle"];

const startedAt = Date.now();
rmSync(path.join(ROOT, DIST), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const compiled = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
  cwd: ROOT,
  stdio: "inherit",
});
if (compiled.status !== 0) {
  process.stderr.write(
    `build: tsc failed (exit ${compiled.status ?? compiled.signal}); dist/ is not usable\n`,
  );
  process.exit(1);
}
for (const folder of COPIED) {
  cpSync(path.join(ROOT, folder), path.join(ROOT, DIST, folder), { recursive: true });
}
writeFileSync(path.join(ROOT, STAMP), `${JSON.stringify({ started_at: startedAt })}\n`);
process.stdout.write(`build: dist/ ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`);
